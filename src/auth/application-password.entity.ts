import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { User } from './user.entity';

@Entity({ name: 'application_passwords' })
@Index('UQ_application_passwords_uuid', ['uuid'], { unique: true })
@Index('IDX_application_passwords_user', ['userId'])
export class ApplicationPassword {
  @PrimaryGeneratedColumn({ type: 'int' })
  id: number;

  @Column({ name: 'user_id', type: 'int' })
  userId: number;

  // One way only: a user's passwords are read by user_id (UsersRepository), so User names no ApplicationPassword.
  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_application_passwords_user' })
  user: User;

  @Column({ type: 'varchar', length: 36 })
  uuid: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  /** SHA-256 (hex) of the generated password; the password itself is shown once and never kept. */
  @Column({ name: 'password_hash', type: 'varchar', length: 64 })
  passwordHash: string;

  @Column({ name: 'last_used_at', type: 'datetime', nullable: true })
  lastUsedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
