import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { addSchemaExamples } from './openapi-examples';

/**
 * Holds the OpenAPI document that @nestjs/swagger generates from the registered routes once at
 * start-up (see app.setup.ts); the namespace index and doc routes are derived from it.
 */
@Injectable()
export class OpenApiDocument {
  private document: OpenAPIObject | null = null;

  /** Keeps the document, with the request and response examples added (in place: the docs page serves the same object). */
  set(document: OpenAPIObject): void {
    this.document = addSchemaExamples(document);
  }

  get(): OpenAPIObject {
    if (!this.document) throw new Error('The OpenAPI document is built in setupApp() before the app serves requests');
    return this.document;
  }
}
