import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntitySubscriberInterface, InsertEvent } from 'typeorm';
import { Attendee } from '../attendees/attendee.entity';
import { generateCheckinSecret } from './checkin-secrets';

/**
 * Gives an attendee inserted through TypeORM without a check-in secret one before the INSERT, so
 * the saved object carries it (rows written by raw SQL get theirs from the database trigger).
 */
@Injectable()
export class AttendeeSecretSubscriber implements EntitySubscriberInterface<Attendee>, OnModuleInit {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  onModuleInit(): void {
    if (!this.dataSource.subscribers.includes(this)) this.dataSource.subscribers.push(this);
  }

  listenTo(): typeof Attendee {
    return Attendee;
  }

  beforeInsert(event: InsertEvent<Attendee>): void {
    if (event.entity && !event.entity.checkinSecret) event.entity.checkinSecret = generateCheckinSecret();
  }
}
