import { Inject, Logger, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Application, NextFunction, Request, Response } from 'express';
import { appConfig, type AppConfig } from '../../config/app.config';

/** The page's own scripts and styles, API calls to its own origin; nothing inline, no framing. */
const QUEUE_PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

const ASSETS: Record<string, { file: string; type: string }> = {
  'queue.js': { file: 'queue.js', type: 'text/javascript; charset=utf-8' },
  'queue.css': { file: 'queue.css', type: 'text/css; charset=utf-8' },
};

/**
 * The waiting room's page for buyers at `/queue/{id}/` (docs/waiting-room.md): static files, no
 * build step, mounted on Express outside the API root like the door page.
 */
@Module({})
export class QueuePageModule implements OnModuleInit {
  private readonly logger = new Logger('QueuePage');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(appConfig.KEY) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const express = this.adapterHost.httpAdapter?.getInstance<Application>();
    if (!express) return;
    const staticDir = [join(__dirname, 'static'), join(process.cwd(), 'src', 'queues', 'queue-page', 'static')].find((dir) =>
      existsSync(join(dir, 'index.html')),
    );
    if (!staticDir) {
      this.logger.warn('the queue page files are missing: /queue/{id}/ is not served');
      return;
    }
    const apiRoot = `${this.config.apiRoot}/${this.config.apiPrefix}`;
    const html = readFileSync(join(staticDir, 'index.html'), 'utf8')
      .replace('__API_BASE__', `${apiRoot}/tickets/v1`)
      .replace('__EVENTS_API_BASE__', `${apiRoot}/events/v1`);
    const assets = new Map(
      Object.entries(ASSETS).map(([name, asset]) => [name, { ...asset, body: readFileSync(join(staticDir, asset.file)) }]),
    );
    express.use((request: Request, response: Response, next: NextFunction) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') return next();
      const page = /^\/queue\/(\d{1,10})\/$/.exec(request.path);
      const asset = /^\/queue\/assets\/([a-z.]+)$/.exec(request.path);
      if (!page && !asset) return next();
      response.setHeader('Content-Security-Policy', QUEUE_PAGE_CSP);
      response.setHeader('X-Content-Type-Options', 'nosniff');
      if (page) {
        response.setHeader('Content-Type', 'text/html; charset=utf-8');
        response.setHeader('Cache-Control', 'public, max-age=60');
        response.send(html);
        return;
      }
      const found = assets.get(asset?.[1] ?? '');
      if (!found) return next();
      response.setHeader('Content-Type', found.type);
      response.setHeader('Cache-Control', 'public, max-age=300');
      response.send(found.body);
    });
  }
}
