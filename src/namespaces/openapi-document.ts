import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { addSchemaExamples } from './openapi-examples';

/**
 * Holds the OpenAPI document that @nestjs/swagger generates from the registered routes (see
 * app.setup.ts), built once on first use; the namespace index and doc routes are derived from it.
 */
@Injectable()
export class OpenApiDocument {
  private build: (() => OpenAPIObject) | null = null;
  private document: OpenAPIObject | null = null;

  /** How to build the document; the request and response examples are added to what it returns. */
  buildWith(build: () => OpenAPIObject): void {
    this.build = build;
    this.document = null;
  }

  /** The document, the same object every time (the docs page serves it too). */
  get(): OpenAPIObject {
    if (!this.document) {
      if (!this.build) throw new Error('setupApp() says how to build the OpenAPI document before the app serves requests');
      this.document = addSchemaExamples(this.build());
    }
    return this.document;
  }
}
