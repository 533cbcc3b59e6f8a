import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ApplicationPassword } from './application-password.entity';
import { User } from './user.entity';

export type NewUserRow = Pick<User, 'login' | 'role' | 'email' | 'displayName' | 'passwordHash'>;
export type NewApplicationPasswordRow = Pick<ApplicationPassword, 'userId' | 'uuid' | 'name' | 'passwordHash' | 'lastUsedAt'>;

/** Users and their application passwords. None of these runs inside another write's transaction. */
@Injectable()
export class UsersRepository {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectRepository(ApplicationPassword) private readonly applicationPasswords: Repository<ApplicationPassword>,
  ) {}

  // ---------------------------------------------------------------- users

  findByLogin(login: string): Promise<User | null> {
    return this.users.findOne({ where: { login } });
  }

  findById(id: number): Promise<User | null> {
    return this.users.findOne({ where: { id } });
  }

  findByLoginOrEmail(identifier: string): Promise<User | null> {
    return this.users.findOne({ where: [{ login: identifier }, { email: identifier }] });
  }

  list(): Promise<User[]> {
    return this.users.find({ order: { id: 'ASC' } });
  }

  insert(values: NewUserRow): Promise<User> {
    return this.users.save(this.users.create(values));
  }

  save(user: User): Promise<User> {
    return this.users.save(user);
  }

  // ---------------------------------------------------------------- application passwords

  insertApplicationPassword(values: NewApplicationPasswordRow): Promise<ApplicationPassword> {
    return this.applicationPasswords.save(this.applicationPasswords.create(values));
  }

  applicationPasswordsOf(userId: number): Promise<ApplicationPassword[]> {
    return this.applicationPasswords.find({ where: { userId }, order: { id: 'ASC' } });
  }

  /** Deletes one application password; returns how many were deleted. */
  async deleteApplicationPassword(uuid: string): Promise<number> {
    return (await this.applicationPasswords.delete({ uuid })).affected ?? 0;
  }

  /** Deletes every application password of the user; returns how many. */
  async deleteApplicationPasswordsOf(userId: number): Promise<number> {
    return (await this.applicationPasswords.delete({ userId })).affected ?? 0;
  }

  async touchApplicationPassword(id: number, now: Date): Promise<void> {
    await this.applicationPasswords.update({ id }, { lastUsedAt: now });
  }
}
