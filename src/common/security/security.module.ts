import { Module } from '@nestjs/common';
import { StatementTimeout } from './statement-timeout';

/** Resource limits that are not request middleware: the database statement timeout. */
@Module({ providers: [StatementTimeout] })
export class SecurityModule {}
