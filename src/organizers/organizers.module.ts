import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Organizer } from './organizer.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Organizer])],
})
export class OrganizersModule {}
