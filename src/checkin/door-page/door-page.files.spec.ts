import { join } from 'node:path';
import type { Request, Response } from 'express';
import { DOOR_PAGE_CSP, doorPageHandler, findStaticDir, loadDoorPageFiles } from './door-page.files';

const files = loadDoorPageFiles({
  staticDir: join(__dirname, 'static'),
  jsqrFile: require.resolve('jsqr'),
  apiBase: '/wp-json/cal/tickets/v1',
});

interface Answer {
  status?: number;
  headers: Record<string, string>;
  body?: Buffer;
  redirect?: [number, string];
  next: boolean;
}

function serve(method: string, url: string, headers: Record<string, string> = {}): Answer {
  const answer: Answer = { headers: {}, next: false };
  const path = url.split('?')[0];
  const response = {
    setHeader: (name: string, value: string) => (answer.headers[name.toLowerCase()] = value),
    status: (status: number) => {
      answer.status = status;
      return response;
    },
    end: (body?: Buffer) => (answer.body = body),
    redirect: (status: number, location: string) => (answer.redirect = [status, location]),
  };
  doorPageHandler(files)({ method, url, path, headers } as unknown as Request, response as unknown as Response, () => (answer.next = true));
  return answer;
}

describe('door page files', () => {
  it('serves the page, its modules, the decoder and the API base from a fixed table', () => {
    expect([...files.keys()].sort()).toEqual(
      [
        '',
        'api.js',
        'app.js',
        'config.json',
        'db.js',
        'decoder-worker.js',
        'feedback.js',
        'icon.svg',
        'index.html',
        'manifest.webmanifest',
        'offline.js',
        'outcomes.js',
        'scanner.js',
        'style.css',
        'sw.js',
        'vendor/jsqr.js',
      ].sort(),
    );
    expect(JSON.parse(files.get('config.json')!.body.toString())).toEqual({ api: '/wp-json/cal/tickets/v1' });
    expect(files.get('vendor/jsqr.js')!.body.toString()).toContain('jsQR');
  });

  it('caches nothing the service worker does not list, and lists every file the page loads', () => {
    const worker = files.get('sw.js')!.body.toString();
    const shell = /const SHELL = \[([^\]]*)\]/.exec(worker)![1];
    const listed = [...shell.matchAll(/'([^']*)'/g)].map((match) => match[1]);
    expect(listed.sort()).toEqual([...[...files.keys()].filter((name) => name !== '' && name !== 'sw.js'), './'].sort());
  });

  it('answers a file with the page headers, 304 to a matching ETag, HEAD without a body', () => {
    const page = serve('GET', '/checkin/');
    expect(page).toMatchObject({ status: 200, next: false });
    expect(page.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': DOOR_PAGE_CSP,
      'cache-control': 'no-cache',
    });
    expect(page.body!.toString()).toContain('<script type="module" src="app.js"></script>');
    expect(serve('GET', '/checkin/', { 'if-none-match': page.headers.etag })).toMatchObject({ status: 304, body: undefined });
    expect(serve('HEAD', '/checkin/app.js')).toMatchObject({ status: 200, body: undefined });
    expect(serve('GET', '/checkin/app.js').headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it('redirects /checkin to /checkin/ keeping the query, and leaves every other request to the app', () => {
    expect(serve('GET', '/checkin?x=1').redirect).toEqual([301, '/checkin/?x=1']);
    for (const [method, url] of [
      ['GET', '/checkin/../package.json'],
      ['GET', '/checkin/static/index.html'],
      ['GET', '/checkin/nope.js'],
      ['GET', '/checkins'],
      ['POST', '/checkin/'],
      ['GET', '/cal/tickets/v1/checkin/search'],
    ]) {
      expect(serve(method, url)).toEqual({ next: true, headers: {} });
    }
  });

  it('finds the static folder among candidates, or none', () => {
    expect(findStaticDir(['/nonexistent', join(__dirname, 'static')])).toBe(join(__dirname, 'static'));
    expect(findStaticDir(['/nonexistent'])).toBeNull();
  });
});
