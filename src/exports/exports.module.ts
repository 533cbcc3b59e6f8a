import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AttendeesModule } from '../attendees/attendees.module';
import { ExportChunk, ExportJob } from './export-job.entity';
import { ExportWorker } from './export-worker.service';
import { ExportsController } from './exports.controller';
import { ExportsRepository } from './exports.repository';
import { ExportsService } from './exports.service';

/**
 * Attendee and order exports (`{prefix}/tickets/v1/{attendees,orders}/export`, `.../exports/{id}`)
 * and the worker that runs the queued ones. Imported in AppModule before the attendee and order
 * modules, so that `/attendees/export` is matched before `/attendees/:id`.
 */
@Module({
  imports: [TypeOrmModule.forFeature([ExportJob, ExportChunk]), AttendeesModule],
  controllers: [ExportsController],
  providers: [ExportsService, ExportsRepository, ExportWorker],
  exports: [ExportWorker],
})
export class ExportsModule {}
