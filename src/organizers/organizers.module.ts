import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LinkedPostsRepository } from '../linked-posts/linked-posts.repository';
import { Organizer } from './organizer.entity';
import { OrganizersController } from './organizers.controller';
import { OrganizersService } from './organizers.service';

@Module({
  imports: [TypeOrmModule.forFeature([Organizer])],
  controllers: [OrganizersController],
  providers: [OrganizersService, LinkedPostsRepository],
  exports: [OrganizersService],
})
export class OrganizersModule {}
