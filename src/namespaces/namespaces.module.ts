import { Module } from '@nestjs/common';
import { EventsNamespaceController, TicketsNamespaceController } from './namespaces.controller';
import { NamespacesService } from './namespaces.service';
import { OpenApiDocument } from './openapi-document';

@Module({
  controllers: [EventsNamespaceController, TicketsNamespaceController],
  providers: [NamespacesService, OpenApiDocument],
  exports: [OpenApiDocument],
})
export class NamespacesModule {}
