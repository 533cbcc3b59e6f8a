import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { isUniqueViolation } from '../common/database/transactions';
import { invalidParam } from '../common/errors/api-error';
import type { ApplicationPassword } from './application-password.entity';
import { generateApplicationPassword, hashApplicationPassword, hashLoginPassword, verifyLoginPassword } from './passwords';
import { isRole, ROLES } from './roles';
import type { User } from './user.entity';
import { UsersRepository } from './users.repository';
import { existingUserLogin, unknownUserLogin } from './auth-errors';

const LOGIN_PATTERN = /^[A-Za-z0-9._@-]{1,60}$/;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface NewUser {
  login: string;
  role: string;
  email?: string;
  displayName?: string;
}

export interface IssuedApplicationPassword {
  uuid: string;
  name: string;
  /** Shown once: only its hash is stored. */
  password: string;
}

@Injectable()
export class UsersService {
  constructor(private readonly repository: UsersRepository) {}

  findByLogin(login: string): Promise<User | null> {
    return this.repository.findByLogin(login);
  }

  findById(id: number): Promise<User | null> {
    return this.repository.findById(id);
  }

  /** The user known by this login or email with their application passwords, in one statement. */
  findWithApplicationPasswords(identifier: string): Promise<{ user: User; applicationPasswords: ApplicationPassword[] } | null> {
    return this.repository.findWithApplicationPasswords(identifier);
  }

  list(): Promise<User[]> {
    return this.repository.list();
  }

  async create(input: NewUser): Promise<User> {
    if (!LOGIN_PATTERN.test(input.login)) {
      throw invalidParam('login', 'login may hold only letters, digits and . _ @ - (1 to 60 characters)');
    }
    if (!isRole(input.role)) throw invalidParam('role', `role must be one of ${ROLES.join(', ')}`);
    if (input.email !== undefined && !EMAIL_PATTERN.test(input.email)) {
      throw invalidParam('email', 'email must be an email address');
    }
    if (await this.findByLogin(input.login)) {
      throw existingUserLogin(input.login);
    }
    return this.repository.insert({
      login: input.login,
      role: input.role,
      email: input.email ?? null,
      displayName: input.displayName ?? input.login,
      passwordHash: null,
    });
  }

  /**
   * Makes sure the administrator named by CAL_ADMIN_USER exists, is an administrator and has the
   * configured password, so that the environment stays the source of truth across restarts.
   */
  async ensureBootstrapAdministrator(login: string, password: string): Promise<User> {
    const existing = await this.findByLogin(login);
    if (!existing) {
      try {
        return await this.repository.insert({
          login,
          role: 'administrator',
          email: null,
          displayName: login,
          passwordHash: await hashLoginPassword(password),
        });
      } catch (error) {
        // Instances starting together on an empty database race to create it; the losers must
        // not fail their start-up, they check the winner's row instead.
        if (!isUniqueViolation(error)) throw error;
        return this.ensureBootstrapAdministrator(login, password);
      }
    }
    const passwordMatches = existing.passwordHash !== null && (await verifyLoginPassword(password, existing.passwordHash));
    if (passwordMatches && existing.role === 'administrator') return existing;
    existing.role = 'administrator';
    if (!passwordMatches) existing.passwordHash = await hashLoginPassword(password);
    return this.repository.save(existing);
  }

  async createApplicationPassword(login: string, name = 'cli'): Promise<IssuedApplicationPassword> {
    const user = await this.findByLogin(login);
    if (!user) throw unknownUserLogin(login);
    const password = generateApplicationPassword();
    const record = await this.repository.insertApplicationPassword({
      userId: user.id,
      uuid: randomUUID(),
      name: name.slice(0, 100),
      passwordHash: hashApplicationPassword(password),
      lastUsedAt: null,
    });
    return { uuid: record.uuid, name: record.name, password };
  }

  /** Revokes one application password by uuid, or every one of a user; returns how many. */
  async revokeApplicationPasswords(selector: { uuid: string } | { login: string }): Promise<number> {
    if ('uuid' in selector) {
      return this.repository.deleteApplicationPassword(selector.uuid);
    }
    const user = await this.findByLogin(selector.login);
    if (!user) throw unknownUserLogin(selector.login);
    return this.repository.deleteApplicationPasswordsOf(user.id);
  }

  async touchApplicationPassword(id: number, now: Date): Promise<void> {
    await this.repository.touchApplicationPassword(id, now);
  }
}
