import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogueReadModule } from '../catalogue/catalogue.module';
import { CheckinModule } from '../checkin/checkin.module';
import { AttendeeTallies } from './attendee-tallies';
import { AttendeeTally } from './attendee-tally.entity';
import { Attendee } from './attendee.entity';
import { AttendeesController } from './attendees.controller';
import { AttendeesRepository } from './attendees.repository';
import { AttendeesService } from './attendees.service';
import { QrController } from './qr.controller';

@Module({
  imports: [TypeOrmModule.forFeature([Attendee, AttendeeTally]), CheckinModule, CatalogueReadModule],
  controllers: [AttendeesController, QrController],
  providers: [AttendeesService, AttendeesRepository, AttendeeTallies],
  exports: [AttendeesService],
})
export class AttendeesModule {}
