import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ReportsController } from './reports.controller';
import { ReportsRepository } from './reports.repository';
import { ReportsService } from './reports.service';
import { SalesDaily, SalesLedgerEntry } from './sales-ledger.entity';
import { SalesLedger } from './sales-ledger';

/** Sales reports (`{prefix}/tickets/v1/reports`) and the fold of the sales ledger they read. */
@Module({
  imports: [TypeOrmModule.forFeature([SalesLedgerEntry, SalesDaily])],
  controllers: [ReportsController],
  providers: [ReportsService, ReportsRepository, SalesLedger],
  exports: [SalesLedger, ReportsService],
})
export class ReportsModule {}
