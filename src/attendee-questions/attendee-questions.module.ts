import { Module } from '@nestjs/common';
import { AttendeeInformationController } from './attendee-information.controller';
import { AttendeeQuestionsService } from './attendee-questions.service';

/** Attendee questions: answers checked on cart writes and at checkout, and edited by buyers and managers. */
@Module({
  controllers: [AttendeeInformationController],
  providers: [AttendeeQuestionsService],
  exports: [AttendeeQuestionsService],
})
export class AttendeeQuestionsModule {}
