import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Attendee } from './attendee.entity';
import { AttendeesController } from './attendees.controller';
import { AttendeesService } from './attendees.service';
import { QrController } from './qr.controller';

@Module({
  imports: [TypeOrmModule.forFeature([Attendee])],
  controllers: [AttendeesController, QrController],
  providers: [AttendeesService],
  exports: [AttendeesService],
})
export class AttendeesModule {}
