/**
 * Clients generated from the served OpenAPI documents: each namespace document names its schemas
 * after the domain (`Event`, `Ticket`, `EventCreate`...), carries only the schemas its own paths
 * reach, and gives a TypeScript client (openapi-typescript, as a client developer would run it)
 * that a small program compiles against with strict settings. No network: the documents come from
 * the app under test, the generator and the compiler run on this machine.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import ts from 'typescript';
import request from 'supertest';
import { createTestApp, TestApp } from './helpers/test-app';

const GENERATOR = join(__dirname, '..', 'node_modules', 'openapi-typescript', 'bin', 'cli.js');

/** Uses the generated types the way a client would: bodies to send, responses to read, errors. */
const PROGRAM = `
import type { components as Events, operations as EventOperations, paths as EventPaths } from './events';
import type { components as Tickets, paths as TicketPaths } from './tickets';

type Event = Events['schemas']['Event'];
type EventList = EventPaths['/events']['get']['responses'][200]['content']['application/json'];
type SameList = EventOperations['events_list']['responses'][200]['content']['application/json'];
export const same = (list: EventList): SameList => list;

export const create: Events['schemas']['EventCreate'] = { title: 'Jazz night', start_date: '2030-01-15 20:00', end_date: '2030-01-15 23:00', categories: ['Concerts'] };
export const update: Events['schemas']['EventUpdate'] = { featured: true };
export const venue: Events['schemas']['VenueCreate'] = { venue: 'Le Caveau', city: 'Paris' };

export function summary(event: Event): string {
  const start: Events['schemas']['DateDetails'] = event.start_date_details;
  const cost: Events['schemas']['CostDetails'] = event.cost_details;
  const image: false | Events['schemas']['Image'] = event.image;
  const venues: Events['schemas']['Venue'][] = Array.isArray(event.venue) ? event.venue : [event.venue];
  const organizers: Events['schemas']['Organizer'][] = event.organizer;
  const categories: string[] = event.categories.map((term) => term.name);
  return [event.title, start.year, cost.currency_symbol, image ? image.url : '', venues.length, organizers.length, ...categories].join(' ');
}

export function firstTitle(list: EventList): string | undefined {
  return list.events[0]?.title;
}

export function termName(term: Events['schemas']['Term'] | Events['schemas']['Category']): string {
  return term.name;
}

export type NotFound = EventPaths['/events/{id}']['get']['responses'][404]['content']['application/json'];
export const notFound = (error: NotFound): Events['schemas']['Error'] => error;

export function explain(error: Events['schemas']['Error'] | Tickets['schemas']['Error']): string {
  return \`\${error.data.status} \${error.code}: \${error.message}\`;
}

export const cart: Tickets['schemas']['CartUpdate'] = { provider: 'tc', tickets: [{ ticket_id: 7, quantity: 2 }] };
export const checkout: Tickets['schemas']['Checkout'] = { provider: 'tc', purchaser: { name: 'Ada', email: 'ada@example.org' } };

export function codes(order: Tickets['schemas']['Order']): string[] {
  const attendees: Tickets['schemas']['Attendee'][] = order.attendees;
  return attendees.map((attendee) => \`\${order.id}/\${attendee.id}: \${attendee.ticket_id}\`);
}

export function priced(ticket: Tickets['schemas']['Ticket']): string {
  return \`\${ticket.post_id} \${ticket.cost_details.currency_symbol}\`;
}

export type Lines = Tickets['schemas']['Cart']['tickets'];
export type Orders = TicketPaths['/orders']['get']['responses'][200]['content']['application/json'];
`;

/** A misuse the types must refuse, so that the program above is checked and not typed as `any`. */
const MISUSE = `
import type { components as Events } from './events';
export const wrong: Events['schemas']['EventCreate'] = { title: 42, start_date: '2030-01-15', end_date: '2030-01-15' };
export const missing = (event: Events['schemas']['Event']): unknown => event.no_such_field;
`;

/** Type-checks the files together (strict); the error messages, by file name. */
function compile(folder: string, files: string[]): Record<string, string[]> {
  const program = ts.createProgram(
    files.map((file) => join(folder, file)),
    {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      skipLibCheck: true,
      types: [],
    },
  );
  const errors: Record<string, string[]> = Object.fromEntries(files.map((file) => [file, []]));
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file ? diagnostic.file.fileName.slice(folder.length + 1) : '(options)';
    (errors[file] ??= []).push(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  }
  return errors;
}

describe('OpenAPI documents for client generators', () => {
  let testApp: TestApp;
  let folder: string;
  const documents: Record<'events' | 'tickets', Record<string, any>> = { events: {}, tickets: {} };

  beforeAll(async () => {
    testApp = await createTestApp();
    folder = mkdtempSync(join(tmpdir(), 'cal-openapi-clients-'));
    for (const name of ['events', 'tickets'] as const) {
      documents[name] = (await request(testApp.app.getHttpServer()).get(`/cal/${name}/v1/doc`).expect(200)).body as Record<string, any>;
    }
  });

  afterAll(async () => {
    await testApp.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('names the schemas after the domain, not after the classes', () => {
    const events = Object.keys(documents.events.components.schemas);
    const tickets = Object.keys(documents.tickets.components.schemas);
    for (const name of [
      'Event',
      'EventList',
      'EventCreate',
      'EventUpdate',
      'Venue',
      'VenueCreate',
      'Organizer',
      'Term',
      'Category',
      'EmbeddedTerm',
      'DateDetails',
      'CostDetails',
      'Image',
      'Error',
    ]) {
      expect(events).toContain(name);
    }
    for (const name of [
      'Ticket',
      'TicketCreate',
      'TicketUpdate',
      'Attendee',
      'Order',
      'Cart',
      'CartUpdate',
      'Checkout',
      'Nonces',
      'Error',
    ]) {
      expect(tickets).toContain(name);
    }
    expect([...events, ...tickets].filter((name) => /(Doc|Dto|Response|Params)$/.test(name))).toEqual([]);
    const operationIds = Object.values(documents).flatMap((document) =>
      Object.values(document.paths as Record<string, Record<string, { operationId?: string }>>).flatMap((item) =>
        Object.values(item).map((operation) => operation.operationId),
      ),
    );
    expect(operationIds.filter((id) => !/^[a-z][A-Za-z]*_[a-z][A-Za-z]*$/.test(String(id)))).toEqual([]);
    expect(new Set(operationIds).size).toBe(operationIds.length);
    expect(operationIds).toEqual(
      expect.arrayContaining(['events_list', 'events_create', 'tickets_create', 'cart_updateWithPost', 'orders_complete']),
    );
    for (const document of Object.values(documents)) {
      for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, { responses: Record<string, any> }>>)) {
        for (const [method, operation] of Object.entries(item)) {
          for (const [status, response] of Object.entries(operation.responses).filter(([code]) => /^[45]/.test(code))) {
            expect([path, method, status, response.content?.['application/json']?.schema]).toEqual([
              path,
              method,
              status,
              { $ref: '#/components/schemas/Error' },
            ]);
          }
        }
      }
    }
    expect(documents.events.paths['/events'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/EventCreate',
    });
  });

  it('gives each namespace document only the schemas its own paths use, in a valid document', async () => {
    const events = Object.keys(documents.events.components.schemas);
    const tickets = Object.keys(documents.tickets.components.schemas);
    for (const name of ['Ticket', 'Attendee', 'Order', 'Cart', 'Nonces', 'TicketCreate']) expect(events).not.toContain(name);
    for (const name of ['Event', 'Venue', 'Organizer', 'EventCreate', 'VenueCreate', 'Category']) expect(tickets).not.toContain(name);
    for (const document of Object.values(documents)) {
      const refs = new Set([...JSON.stringify(document).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((match) => match[1]));
      expect([...refs].filter((name) => !document.components.schemas[name])).toEqual([]);
      await expect(SwaggerParser.validate(JSON.parse(JSON.stringify(document)))).resolves.toBeDefined();
    }
  });

  it('generates a TypeScript client from each document that a program compiles against', async () => {
    for (const name of ['events', 'tickets'] as const) {
      writeFileSync(join(folder, `${name}.json`), JSON.stringify(documents[name]));
      // Properties with a default are optional in request bodies: keep them optional in the types.
      await promisify(execFile)(process.execPath, [
        GENERATOR,
        join(folder, `${name}.json`),
        '--output',
        join(folder, `${name}.ts`),
        '--default-non-nullable',
        'false',
      ]);
    }
    writeFileSync(join(folder, 'program.ts'), PROGRAM);
    writeFileSync(join(folder, 'misuse.ts'), MISUSE);
    const errors = compile(folder, ['program.ts', 'misuse.ts']);
    expect(errors['events.ts'] ?? []).toEqual([]);
    expect(errors['tickets.ts'] ?? []).toEqual([]);
    expect(errors['program.ts']).toEqual([]);
    expect(errors['misuse.ts']).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/Type 'number' is not assignable to type 'string'/),
        expect.stringMatching(/Property 'no_such_field' does not exist/),
      ]),
    );
  }, 60_000);
});
