import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LinkedPostsRepository } from '../linked-posts/linked-posts.repository';
import { VenuesController } from './venues.controller';
import { VenuesService } from './venues.service';
import { Venue } from './venue.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Venue])],
  controllers: [VenuesController],
  providers: [VenuesService, LinkedPostsRepository],
  exports: [VenuesService],
})
export class VenuesModule {}
