import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import multer from 'multer';
import { ApiError } from '../errors/api-error';

export const PARSE_LIMITS = { depth: 5, arrayLimit: 200, parameterLimit: 1000 };

/** Failures of body-parser (by `type`) and multer (by `code`), in the error envelope. */
const PARSER_ERRORS: Record<string, () => ApiError> = {
  'entity.parse.failed': () => new ApiError('rest_invalid_json', 'Invalid JSON body passed.', 400),
  'entity.too.large': () => new ApiError('rest_request_too_large', 'The request body is larger than the limit.', 413),
  'encoding.unsupported': () => new ApiError('rest_unsupported_media_type', 'The request body encoding is not supported.', 415),
  'charset.unsupported': () => new ApiError('rest_unsupported_media_type', 'The request body charset is not supported.', 415),
  'request.aborted': () => new ApiError('rest_request_aborted', 'The request was aborted by the client.', 400),
  'request.size.invalid': () => new ApiError('rest_bad_request', 'The request body length does not match its header.', 400),
  'parameters.too.many': () => new ApiError('rest_request_too_large', 'The request has too many parameters.', 413),
  'querystring.parse.rangeError': () => new ApiError('rest_bad_request', `The form body is nested deeper than ${PARSE_LIMITS.depth} levels.`, 400),
  LIMIT_FIELD_VALUE: () => new ApiError('rest_request_too_large', 'A form field is larger than the limit.', 413),
  LIMIT_FIELD_COUNT: () => new ApiError('rest_request_too_large', 'The form has too many fields.', 413),
  LIMIT_PART_COUNT: () => new ApiError('rest_request_too_large', 'The form has too many parts.', 413),
  LIMIT_FIELD_KEY: () => new ApiError('rest_request_too_large', 'A form field name is too long.', 413),
  LIMIT_FILE_COUNT: () => new ApiError('rest_invalid_param', 'File uploads are not accepted.', 400, { params: { file: 'File uploads are not accepted.' } }),
  LIMIT_UNEXPECTED_FILE: () => new ApiError('rest_invalid_param', 'File uploads are not accepted.', 400, { params: { file: 'File uploads are not accepted.' } }),
};

function toApiError(error: unknown): unknown {
  if (typeof error !== 'object' || error === null) return error;
  const { type, code } = error as { type?: unknown; code?: unknown };
  const key = typeof type === 'string' ? type : typeof code === 'string' ? code : undefined;
  const build = key ? PARSER_ERRORS[key] : undefined;
  if (build) return build();
  // Malformed multipart bodies from busboy carry no code but are still the client's fault.
  if (error instanceof Error && /^(Multipart|Unexpected end of form|Malformed part header)/i.test(error.message)) {
    return new ApiError('rest_bad_request', 'The multipart body is malformed.', 400);
  }
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

function mapErrors(parser: RequestHandler): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) =>
    parser(request, response, (error?: unknown) => next(error === undefined ? undefined : toApiError(error)));
}

/**
 * JSON, urlencoded (`ticket[mode]=own` becomes `{ticket: {mode: "own"}}`) and multipart bodies
 * with the same meaning, each limited to `limitBytes`. Multipart carries fields only (as the
 * original's editor sends them); files are refused.
 */
export function createBodyParsers(limitBytes: number): RequestHandler[] {
  return [
    mapErrors(express.json({ limit: limitBytes, strict: false, reviver: refuseLoneSurrogates })),
    mapErrors(express.urlencoded({ limit: limitBytes, extended: true, ...PARSE_LIMITS })),
    mapErrors(multer({ limits: { fieldSize: limitBytes, fields: 1000, files: 0, parts: 1000 } }).none()),
  ];
}
