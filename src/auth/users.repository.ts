import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { hydrate, KeptSelects } from '../common/database/kept-statements';
import { ApplicationPassword } from './application-password.entity';
import { User } from './user.entity';

export type NewUserRow = Pick<User, 'login' | 'role' | 'email' | 'displayName' | 'passwordHash'>;
export type NewApplicationPasswordRow = Pick<ApplicationPassword, 'userId' | 'uuid' | 'name' | 'passwordHash' | 'lastUsedAt'>;

/** Users and their application passwords. None of these runs inside another write's transaction. */
@Injectable()
export class UsersRepository {
  /** The SQL of the read every request with Basic credentials makes. */
  private readonly selects = new KeptSelects();

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

  /**
   * The user whose login or email is `identifier` (one of them, as a `LIMIT 1` picks it, when two
   * match) with every application password of theirs, by id: one statement, since every request
   * with Basic credentials makes it.
   */
  async findWithApplicationPasswords(identifier: string): Promise<{ user: User; applicationPasswords: ApplicationPassword[] } | null> {
    const manager = this.users.manager;
    const rows = await this.selects.rows<Record<string, unknown>>(
      manager,
      'userWithApplicationPasswords',
      () => {
        const chosen = manager
          .createQueryBuilder(User, 'chosen')
          .select('chosen.id')
          .where('chosen.login = :identifier OR chosen.email = :identifier')
          .limit(1);
        return manager
          .createQueryBuilder(User, 'user')
          .leftJoin(ApplicationPassword, 'password', 'password.userId = user.id')
          .addSelect(['password.id', 'password.passwordHash', 'password.lastUsedAt'])
          .where(`user.id = (${chosen.getQuery()})`)
          .orderBy('password.id', 'ASC');
      },
      { identifier },
    );
    if (rows.length === 0) return null;
    const user = hydrate(manager, User, 'user', rows[0]);
    const applicationPasswords = rows
      .filter((row) => row.password_id !== null && row.password_id !== undefined)
      .map((row) => hydrate(manager, ApplicationPassword, 'password', row));
    return { user, applicationPasswords };
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
