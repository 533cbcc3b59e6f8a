import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Where the page lives: `/checkin/`, outside the API root and its JSON-only headers. */
export const DOOR_PAGE_PATH = '/checkin';

/** The page's files: URL name → file in static/ (or a library in node_modules) and its type. */
const STATIC_FILES: Record<string, string> = {
  '': 'index.html',
  'index.html': 'index.html',
  'app.js': 'app.js',
  'api.js': 'api.js',
  'db.js': 'db.js',
  'feedback.js': 'feedback.js',
  'outcomes.js': 'outcomes.js',
  'offline.js': 'offline.js',
  'scanner.js': 'scanner.js',
  'decoder-worker.js': 'decoder-worker.js',
  'sw.js': 'sw.js',
  'style.css': 'style.css',
  'icon.svg': 'icon.svg',
  'manifest.webmanifest': 'manifest.webmanifest',
};

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  json: 'application/json; charset=utf-8',
  webmanifest: 'application/manifest+json; charset=utf-8',
};

/**
 * The page is a document, unlike the API's answers (`default-src 'none'`): its own scripts,
 * styles, worker and service worker, API calls to its own origin, the camera's frames drawn on a
 * canvas. Nothing inline, nothing from elsewhere, no framing.
 */
export const DOOR_PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The camera for this origin only; nothing else the page does not use. */
export const DOOR_PAGE_PERMISSIONS = 'camera=(self), microphone=(), geolocation=(), payment=()';

export interface DoorPageFile {
  body: Buffer;
  type: string;
  etag: string;
}

export interface DoorPageOptions {
  /** The folder holding the page's files. */
  staticDir: string;
  /** jsQR's browser build (the fallback decoder), served as `vendor/jsqr.js`. */
  jsqrFile: string;
  /** Where the API lives for the page: `{apiRoot}/{apiPrefix}/tickets/v1`. */
  apiBase: string;
}

function fileOf(body: Buffer, name: string): DoorPageFile {
  const extension = name.slice(name.lastIndexOf('.') + 1);
  const type = TYPES[extension] ?? 'application/octet-stream';
  return { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/**
 * The page's files, read once at start (about 300 kB with the decoder): a fixed table, so no
 * request path ever reaches the file system. `config.json` tells the page where the API is.
 */
export function loadDoorPageFiles(options: DoorPageOptions): Map<string, DoorPageFile> {
  const files = new Map<string, DoorPageFile>();
  for (const [url, file] of Object.entries(STATIC_FILES)) {
    files.set(url, fileOf(readFileSync(join(options.staticDir, file)), file));
  }
  files.set('vendor/jsqr.js', fileOf(readFileSync(options.jsqrFile), 'jsqr.js'));
  files.set('config.json', fileOf(Buffer.from(JSON.stringify({ api: options.apiBase })), 'config.json'));
  return files;
}

/**
 * The static folder: beside this file (src/ under ts-jest, dist/ after `nest build`, which copies
 * it as an asset), else the source tree from the working directory (a copy of src/ transpiled
 * elsewhere); null when neither has it.
 */
export function findStaticDir(candidates: string[]): string | null {
  return candidates.find((folder) => existsSync(join(folder, 'index.html'))) ?? null;
}

/**
 * GET/HEAD of `/checkin`, `/checkin/` and the files: conditional requests answer 304, every
 * answer is revalidated (`no-cache`: the service worker keeps the copy for offline use). Other
 * paths and methods go on to the app's 404.
 */
export function doorPageHandler(files: Map<string, DoorPageFile>): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return next();
    if (request.path === DOOR_PAGE_PATH) {
      const query = request.url.slice(request.path.length);
      return response.redirect(301, `${DOOR_PAGE_PATH}/${query}`);
    }
    if (!request.path.startsWith(`${DOOR_PAGE_PATH}/`)) return next();
    const file = files.get(request.path.slice(DOOR_PAGE_PATH.length + 1));
    if (!file) return next();
    response.setHeader('Content-Security-Policy', DOOR_PAGE_CSP);
    response.setHeader('Permissions-Policy', DOOR_PAGE_PERMISSIONS);
    response.setHeader('Cache-Control', 'no-cache');
    response.setHeader('ETag', file.etag);
    response.setHeader('Content-Type', file.type);
    if (request.headers['if-none-match'] === file.etag) {
      response.status(304).end();
      return;
    }
    response.setHeader('Content-Length', String(file.body.length));
    if (request.method === 'HEAD') {
      response.status(200).end();
      return;
    }
    response.status(200).end(file.body);
  };
}
