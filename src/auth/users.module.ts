import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApplicationPassword } from './application-password.entity';
import { User } from './user.entity';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

/** Users and application passwords, shared by the HTTP auth and the command line tool. */
@Module({
  imports: [TypeOrmModule.forFeature([User, ApplicationPassword])],
  providers: [UsersService, UsersRepository],
  exports: [UsersService],
})
export class UsersModule {}
