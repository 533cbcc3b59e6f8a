import { Module } from '@nestjs/common';
import { AppModule } from '../app.module';
import { DemoSeeder } from './demo-seeder';

/**
 * The whole application without its HTTP server, plus the demo seeder: the seed goes through the
 * same services, and whatever they depend on (metrics, hooks between modules) is wired as in the app.
 */
@Module({
  imports: [AppModule],
  providers: [DemoSeeder],
})
export class DemoModule {}
