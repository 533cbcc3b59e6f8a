import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../auth/roles';
import { CLOCK, Clock } from '../common/clock';
import { forbidden, invalidParam } from '../common/errors/api-error';
import { deviceNotFound, deviceTokenInvalid } from './checkin-errors';
import { isoTime, toDeviceResponse } from './checkin.mapper';
import { CheckinRepository } from './checkin.repository';
import { generateToken, hashToken } from './checkin-secrets';
import type { Device } from './device.entity';
import { parseIdList } from './id-list';
import { DeviceCreatedResponse, DeviceInitializedResponse, DeviceListResponse, DeviceResponse } from './dto/checkin.response';
import { CreateDeviceDto, InitializeDeviceDto } from './dto/device.dto';
import { TransactionHost } from '../common/database/transaction-host';
import { canManageEvent, managesEveryEvent } from '../access/event-access';

/** How long an initialization token may be used. */
export const INITIALIZATION_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Scanner devices: registered by a manager for lists of events they manage, paired once with the
 * initialization token, then authenticated by their API token (only hashes are stored) until revoked.
 */
@Injectable()
export class DevicesService {
  constructor(
    private readonly tx: TransactionHost,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly repository: CheckinRepository,
  ) {}

  async create(input: CreateDeviceDto, user: AuthenticatedUser): Promise<DeviceCreatedResponse> {
    const listIds = [...new Set(input.list_ids)].sort((a, b) => a - b);
    const lists = await this.repository.findLists(listIds);
    if (lists.length !== listIds.length) throw invalidParam('list_ids', 'list_ids must be existing check-in lists');
    await this.assertManagesLists(user, listIds);
    const token = generateToken('ini');
    const expires = new Date(this.clock.now().getTime() + INITIALIZATION_TTL_MS);
    const device = await this.tx.run(() =>
      this.repository.insertDevice({
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
    const devices = await this.repository.listDevices(managesEveryEvent(user) ? undefined : user.id);
    return { devices: devices.map(toDeviceResponse) };
  }

  async initialize(input: InitializeDeviceDto): Promise<DeviceInitializedResponse> {
    const apiToken = generateToken('dev');
    const device = await this.tx.run(() =>
      this.repository.initializeDevice(
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
    const device = await this.repository.findDevice(id);
    if (!device) throw deviceNotFound();
    if (device.createdBy !== user.id) await this.assertManagesLists(user, parseIdList(device.listIds));
    await this.tx.run(() => this.repository.revokeDevice(id, this.clock.now()));
    return toDeviceResponse((await this.repository.findDevice(id)) as Device);
  }

  /** The device holding this API token: 401 device-token-invalid for an unknown or revoked one. */
  async authenticate(apiToken: string): Promise<Device> {
    const device = await this.repository.deviceByApiToken(hashToken(apiToken));
    if (!device || device.revokedAt) throw deviceTokenInvalid();
    return device;
  }

  private async assertManagesLists(user: AuthenticatedUser, listIds: number[]): Promise<void> {
    if (managesEveryEvent(user)) return;
    const lists = await this.repository.findLists(listIds);
    const events = await this.repository.events(lists.map((list) => list.eventId));
    if (events.length === 0 || !events.every((event) => canManageEvent(user, event))) {
      throw forbidden(false, 'Sorry, you are not allowed to manage devices of these check-in lists.');
    }
  }
}
