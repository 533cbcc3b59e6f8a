import { Module } from '@nestjs/common';
import { ApiRootController, AuthNamespaceController, EventsNamespaceController, TicketsNamespaceController } from './namespaces.controller';
import { NamespacesService } from './namespaces.service';
import { OpenApiDocument } from './openapi-document';

@Module({
  controllers: [ApiRootController, EventsNamespaceController, TicketsNamespaceController, AuthNamespaceController],
  providers: [NamespacesService, OpenApiDocument],
  exports: [OpenApiDocument, NamespacesService],
})
export class NamespacesModule {}
