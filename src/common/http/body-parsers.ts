import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import * as qs from 'qs';
import { ApiError } from '../errors/api-error';

export const PARSE_LIMITS = { depth: 5, arrayLimit: 200, parameterLimit: 1000 };

/**
 * Deepest nesting of arrays and objects a JSON body may have. Deeper bodies are refused before
 * they are parsed: the conversion to DTO classes recurses once per level and a body nested a few
 * thousand levels (a few KB) overflowed the stack. The API's deepest body is far shallower.
 */
export const MAX_JSON_DEPTH = 32;

/** Failures of body-parser (by `type`), in the error envelope. */
const PARSER_ERRORS: Record<string, () => ApiError> = {
  'entity.parse.failed': () => new ApiError('rest_invalid_json', 'Invalid JSON body passed.', 400),
  'entity.too.large': () => new ApiError('rest_request_too_large', 'The request body is larger than the limit.', 413),
  'encoding.unsupported': () => new ApiError('rest_unsupported_media_type', 'The request body encoding is not supported.', 415),
  'charset.unsupported': () => new ApiError('rest_unsupported_media_type', 'The request body charset is not supported.', 415),
  'request.aborted': () => new ApiError('rest_request_aborted', 'The request was aborted by the client.', 400),
  'request.size.invalid': () => new ApiError('rest_bad_request', 'The request body length does not match its header.', 400),
  'parameters.too.many': () => new ApiError('rest_request_too_large', 'The request has too many parameters.', 413),
  'querystring.parse.rangeError': () =>
    new ApiError('rest_bad_request', `The form body is nested deeper than ${PARSE_LIMITS.depth} levels.`, 400),
  'entity.too.deep': () => new ApiError('rest_invalid_json', `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`, 400),
};

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether JSON text nests arrays and objects deeper than `limit`, brackets inside strings aside (one pass over the bytes). */
export function jsonNestedDeeperThan(body: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < body.length; index += 1) {
    const byte = body[index];
    if (inString) {
      if (byte === BACKSLASH) index += 1;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth += 1;
      if (depth > limit) return true;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth -= 1;
    }
  }
  return false;
}

/** body-parser's `verify` hook: runs on the raw bytes before JSON.parse. */
function refuseDeepJson(_request: unknown, _response: unknown, body: Buffer): void {
  if (jsonNestedDeeperThan(body, MAX_JSON_DEPTH))
    throw Object.assign(new Error('JSON body nested too deeply'), { status: 400, type: 'entity.too.deep' });
}

function toApiError(error: unknown): unknown {
  if (typeof error !== 'object' || error === null) return error;
  const { type, code } = error as { type?: unknown; code?: unknown };
  const key = typeof type === 'string' ? type : typeof code === 'string' ? code : undefined;
  const build = key ? PARSER_ERRORS[key] : undefined;
  if (build) return build();
  // Any other client error of the parsers (http-errors they mark as exposable) is not a server failure.
  const { status, expose } = error as { status?: unknown; expose?: unknown };
  if (expose === true && typeof status === 'number' && status >= 400 && status < 500) {
    return new ApiError('rest_bad_request', 'The request body could not be read.', status);
  }
  return error;
}

/** A UTF-16 surrogate without its pair: with the `u` flag, a well-formed pair is one code point and does not match. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * JSON may escape lone surrogates (`"\ud800"`), which are no text: validators that encode strings
 * throw on them and no column can store them. A body holding one is refused as invalid JSON.
 */
function refuseLoneSurrogates(key: string, value: unknown): unknown {
  if (LONE_SURROGATE.test(key) || (typeof value === 'string' && LONE_SURROGATE.test(value))) {
    throw new SyntaxError('The JSON body holds a string with an unpaired surrogate.');
  }
  return value;
}

/** A body parser whose failures become the error envelope (413, 415, 400) instead of a 500. */
export function mapErrors(parser: RequestHandler): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) =>
    parser(request, response, (error?: unknown) => next(error === undefined ? undefined : toApiError(error)));
}

function fileUploadsRefused(): ApiError {
  return new ApiError('rest_invalid_param', 'File uploads are not accepted.', 400, { params: { file: 'File uploads are not accepted.' } });
}

/**
 * Multipart forms, fields only: the platform's FormData parser reads the parts and qs assembles
 * their names with the urlencoded parser's limits, so that both encodings mean the same thing.
 * (multer assembled `a[2147483647]=1&a[x]=2` by walking two billion array slots: minutes of CPU
 * for one request.)
 */
function multipartFields(limitBytes: number): RequestHandler[] {
  const read = mapErrors(express.raw({ type: 'multipart/form-data', limit: limitBytes }));
  const assemble: RequestHandler = (request, _response, next) => {
    if (!request.is('multipart/form-data') || !Buffer.isBuffer(request.body)) {
      next();
      return;
    }
    const parts = new globalThis.Response(Uint8Array.from(request.body), {
      headers: { 'content-type': request.headers['content-type'] ?? '' },
    });
    parts.formData().then(
      (form) => {
        const pairs: string[] = [];
        for (const [name, value] of form.entries()) {
          if (typeof value !== 'string') return next(fileUploadsRefused());
          pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
        }
        if (pairs.length > PARSE_LIMITS.parameterLimit)
          return next(new ApiError('rest_request_too_large', 'The form has too many fields.', 413));
        try {
          request.body = qs.parse(pairs.join('&'), { ...PARSE_LIMITS, strictDepth: true });
        } catch {
          return next(PARSER_ERRORS['querystring.parse.rangeError']());
        }
        return next();
      },
      () => next(new ApiError('rest_bad_request', 'The multipart body is malformed.', 400)),
    );
  };
  return [read, assemble];
}

/**
 * JSON, urlencoded (`ticket[mode]=own` becomes `{ticket: {mode: "own"}}`) and multipart bodies
 * with the same meaning, each limited to `limitBytes`. Multipart carries fields only (as the
 * original's editor sends them); files are refused.
 */
export function createBodyParsers(limitBytes: number): RequestHandler[] {
  return [
    mapErrors(express.json({ limit: limitBytes, strict: false, reviver: refuseLoneSurrogates, verify: refuseDeepJson })),
    mapErrors(express.urlencoded({ limit: limitBytes, extended: true, ...PARSE_LIMITS })),
    ...multipartFields(limitBytes),
  ];
}
