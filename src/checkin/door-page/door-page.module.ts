import { Inject, Logger, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Application } from 'express';
import { join } from 'node:path';
import { appConfig, type AppConfig } from '../../config/app.config';
import { doorPageHandler, findStaticDir, loadDoorPageFiles } from './door-page.files';

/**
 * The door page at `/checkin/` (docs/door-page.md): static files, no build step. Mounted on the
 * Express instance once the API's routes are in place, outside the API root, with headers of
 * its own (door-page.files.ts). An application context without HTTP (the CLI) mounts nothing.
 */
@Module({})
export class DoorPageModule implements OnModuleInit {
  private readonly logger = new Logger('DoorPage');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(appConfig.KEY) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const express = this.adapterHost.httpAdapter?.getInstance<Application>();
    if (!express) return;
    const staticDir = findStaticDir([join(__dirname, 'static'), join(process.cwd(), 'src', 'checkin', 'door-page', 'static')]);
    if (!staticDir) {
      this.logger.warn('the door page files are missing: /checkin/ is not served');
      return;
    }
    const files = loadDoorPageFiles({
      staticDir,
      jsqrFile: require.resolve('jsqr'),
      apiBase: `${this.config.apiRoot}/${this.config.apiPrefix}/tickets/v1`,
    });
    express.use(doorPageHandler(files));
  }
}
