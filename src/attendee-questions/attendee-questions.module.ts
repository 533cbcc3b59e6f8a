import { Module } from '@nestjs/common';
import { AttendeeInformationController } from './attendee-information.controller';
import { AttendeeQuestionsRepository } from './attendee-questions.repository';
import { AttendeeQuestionsService } from './attendee-questions.service';

/** Attendee questions: answers checked on cart writes and at checkout, and edited by buyers and managers. */
@Module({
  controllers: [AttendeeInformationController],
  providers: [AttendeeQuestionsService, AttendeeQuestionsRepository],
  exports: [AttendeeQuestionsService],
})
export class AttendeeQuestionsModule {}
