import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { Role } from './roles';

@Entity({ name: 'users' })
@Index('UQ_users_login', ['login'], { unique: true })
@Index('IDX_users_email', ['email'])
export class User {
  @PrimaryGeneratedColumn({ type: 'int' })
  id: number;

  @Column({ type: 'varchar', length: 60 })
  login: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  email: string | null;

  @Column({ name: 'display_name', type: 'varchar', length: 250, default: '' })
  displayName: string;

  @Column({ type: 'varchar', length: 20 })
  role: Role;

  /** scrypt hash of a login password; only the bootstrap administrator has one. */
  @Column({ name: 'password_hash', type: 'varchar', length: 255, nullable: true })
  passwordHash: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
