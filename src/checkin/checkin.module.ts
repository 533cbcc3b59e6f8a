import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AnnulService } from './annul.service';
import { AttendeeSecretSubscriber } from './attendee-secret.subscriber';
import { CheckinList } from './checkin-list.entity';
import { CheckinListsController } from './checkin-lists.controller';
import { CheckinListsService } from './checkin-lists.service';
import { CheckinPosition } from './checkin-position.entity';
import { Checkin } from './checkin.entity';
import { CheckinRepository } from './checkin.repository';
import { Device } from './device.entity';
import { DevicesController } from './devices.controller';
import { DevicesService } from './devices.service';
import { DoorGuard } from './door-route';
import { DoorListCache } from './door-lists.cache';
import { DoorController } from './door.controller';
import { DoorService } from './door.service';
import { RedeemService } from './redeem.service';
import { RevokedSecret } from './revoked-secret.entity';
import { SyncService } from './sync.service';

/**
 * The door (docs/checkin.md): check-in lists, devices, redeem, search, history and offline sync. The
 * attendees module calls DoorService.recordFlag so that its check-in flag and POST /qr write the
 * default list's history; the door's sales (src/door-sales) use the lists and RedeemService.admitSold.
 */
@Module({
  imports: [TypeOrmModule.forFeature([CheckinList, CheckinPosition, Checkin, Device, RevokedSecret])],
  controllers: [CheckinListsController, DevicesController, DoorController],
  providers: [
    CheckinRepository,
    DoorListCache,
    AttendeeSecretSubscriber,
    CheckinListsService,
    DevicesService,
    RedeemService,
    AnnulService,
    DoorService,
    SyncService,
    { provide: APP_GUARD, useClass: DoorGuard },
  ],
  exports: [DoorService, CheckinListsService, RedeemService, DevicesService],
})
export class CheckinModule {}
