import { Module } from '@nestjs/common';
import { GracefulShutdown } from './graceful-shutdown';
import { StatementTimeout } from './statement-timeout';

/** What is not request middleware: the database statement timeout, and draining connections at shutdown. */
@Module({ providers: [StatementTimeout, GracefulShutdown] })
export class SecurityModule {}
