import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AuthenticatedUser } from '../auth/roles';
import { CLOCK, Clock } from '../common/clock';
import { runInTransaction } from '../common/database/transactions';
import { forbidden, invalidParam } from '../common/errors/api-error';
import { canManageEvent, managesEveryEvent } from '../tickets/ticket-visibility';
import { deviceNotFound, deviceTokenInvalid } from './checkin-errors';
import { isoTime, toDeviceResponse } from './checkin.mapper';
import { CheckinRepository } from './checkin.repository';
import { generateToken, hashToken } from './checkin-secrets';
import type { Device } from './device.entity';
import { parseIdList } from './id-list';
import { DeviceCreatedResponse, DeviceInitializedResponse, DeviceListResponse, DeviceResponse } from './dto/checkin.response';
import { CreateDeviceDto, InitializeDeviceDto } from './dto/device.dto';

/** How long an initialization token may be used. */
export const INITIALIZATION_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Scanner devices: registered by a manager for lists of events they manage, paired once with the
 * initialization token, then authenticated by their API token (only hashes are stored) until revoked.
 */
@Injectable()
export class DevicesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly repository: CheckinRepository,
  ) {}

  async create(input: CreateDeviceDto, user: AuthenticatedUser): Promise<DeviceCreatedResponse> {
    const manager = this.dataSource.manager;
    const listIds = [...new Set(input.list_ids)].sort((a, b) => a - b);
    const lists = await this.repository.findLists(manager, listIds);
    if (lists.length !== listIds.length) throw invalidParam('list_ids', 'list_ids must be existing check-in lists');
    await this.assertManagesLists(user, listIds);
    const token = generateToken('ini');
    const expires = new Date(this.clock.now().getTime() + INITIALIZATION_TTL_MS);
    const device = await runInTransaction(this.dataSource, (transaction) =>
      this.repository.insertDevice(transaction, {
        name: input.name,
        listIds: JSON.stringify(listIds),
        initializationTokenHash: hashToken(token),
        initializationExpiresAt: expires,
        createdBy: user.id,
      }),
    );
    return { ...toDeviceResponse(device), initialization_token: token, initialization_expires: isoTime(expires) };
  }

  /** Devices of the caller's lists: all for those managing every event, the ones they registered for authors. */
  async list(user: AuthenticatedUser): Promise<DeviceListResponse> {
    const devices = await this.repository.listDevices(this.dataSource.manager, managesEveryEvent(user) ? undefined : user.id);
    return { devices: devices.map(toDeviceResponse) };
  }

  async initialize(input: InitializeDeviceDto): Promise<DeviceInitializedResponse> {
    const apiToken = generateToken('dev');
    const device = await runInTransaction(this.dataSource, (manager) =>
      this.repository.initializeDevice(
        manager,
        hashToken(input.token),
        hashToken(apiToken),
        { hardware: input.hardware ?? null, software: input.software ?? null },
        this.clock.now(),
      ),
    );
    if (!device) throw deviceTokenInvalid();
    return { device_id: device.id, api_token: apiToken, name: device.name, list_ids: parseIdList(device.listIds) };
  }

  async revoke(id: number, user: AuthenticatedUser): Promise<DeviceResponse> {
    const manager = this.dataSource.manager;
    const device = await this.repository.findDevice(manager, id);
    if (!device) throw deviceNotFound();
    if (device.createdBy !== user.id) await this.assertManagesLists(user, parseIdList(device.listIds));
    await runInTransaction(this.dataSource, (transaction) => this.repository.revokeDevice(transaction, id, this.clock.now()));
    return toDeviceResponse((await this.repository.findDevice(manager, id)) as Device);
  }

  /** The device holding this API token: 401 device-token-invalid for an unknown or revoked one. */
  async authenticate(apiToken: string): Promise<Device> {
    const device = await this.repository.deviceByApiToken(this.dataSource.manager, hashToken(apiToken));
    if (!device || device.revokedAt) throw deviceTokenInvalid();
    return device;
  }

  private async assertManagesLists(user: AuthenticatedUser, listIds: number[]): Promise<void> {
    if (managesEveryEvent(user)) return;
    const manager = this.dataSource.manager;
    const lists = await this.repository.findLists(manager, listIds);
    const events = await this.repository.events(
      manager,
      lists.map((list) => list.eventId),
    );
    if (events.length === 0 || !events.every((event) => canManageEvent(user, event))) {
      throw forbidden(false, 'Sorry, you are not allowed to manage devices of these check-in lists.');
    }
  }
}
