import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Command, CommanderError } from 'commander';
import { UsersService } from './auth/users.service';
import { CliModule } from './cli.module';
import { ApiError } from './common/errors/api-error';
import { ConfigError, loadAppConfig, loadDotEnvFile } from './config/app.config';
import { readPayments } from './payments/providers/registry';
import { DemoRefusedError } from './demo/demo-refused.error';

/**
 * Administration from the command line: `npm run --silent cli -- <command>`. Every command prints
 * one JSON document on stdout; errors go to stderr with a non-zero exit code.
 */
function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

async function withUsers<T>(work: (users: UsersService) => Promise<T>): Promise<T> {
  const context: INestApplicationContext = await NestFactory.createApplicationContext(CliModule, {
    logger: ['error'],
    abortOnError: false,
  });
  try {
    return await work(context.get(UsersService));
  } finally {
    await context.close();
  }
}

export function buildProgram(): Command {
  const program = new Command('cal')
    .description('Administration of the cal events and ticketing service')
    .showHelpAfterError()
    .exitOverride();

  program
    .command('user:create')
    .description('create a user and an application password for it; prints {id, login, role, application_password}')
    .requiredOption('--login <login>', 'login name (letters, digits, . _ @ -)')
    .requiredOption('--role <role>', 'administrator, editor, author, contributor, subscriber or door_staff')
    .option('--email <email>', 'email address')
    .option('--name <display name>', 'display name')
    .action(async (options: { login: string; role: string; email?: string; name?: string }) => {
      await withUsers(async (users) => {
        const user = await users.create({ login: options.login, role: options.role, email: options.email, displayName: options.name });
        const issued = await users.createApplicationPassword(user.login, 'cli');
        print({
          id: user.id,
          login: user.login,
          role: user.role,
          email: user.email,
          application_password: issued.password,
          uuid: issued.uuid,
        });
      });
    });

  program
    .command('user:list')
    .description('list users as a JSON array')
    .action(async () => {
      await withUsers(async (users) => {
        print((await users.list()).map((user) => ({ id: user.id, login: user.login, role: user.role, email: user.email })));
      });
    });

  program
    .command('app-password:create')
    .description('issue another application password for a user; prints {login, uuid, name, application_password}')
    .requiredOption('--login <login>', 'the user')
    .option('--name <name>', 'a label to recognise the password by', 'cli')
    .action(async (options: { login: string; name: string }) => {
      await withUsers(async (users) => {
        const issued = await users.createApplicationPassword(options.login, options.name);
        print({ login: options.login, uuid: issued.uuid, name: issued.name, application_password: issued.password });
      });
    });

  program
    .command('app-password:revoke')
    .description('revoke one application password (--uuid) or all of a user (--login); prints {revoked}')
    .option('--uuid <uuid>', 'the password to revoke')
    .option('--login <login>', 'revoke every password of this user')
    .action(async (options: { uuid?: string; login?: string }) => {
      if (!options.uuid === !options.login) throw new CliUsageError('give exactly one of --uuid or --login');
      await withUsers(async (users) => {
        const revoked = await users.revokeApplicationPasswords(options.uuid ? { uuid: options.uuid } : { login: options.login as string });
        print({ revoked });
      });
    });

  program
    .command('seed:demo')
    .description(
      'load a demo calendar into an empty database (10 venues, 50 events over the coming months, organizers, categories, tags, tickets of each provider and capacity mode, attendees from checkouts) and a "demo" editor; refuses when events, venues, organizers or tickets exist; prints the counts and the editor\'s application password',
    )
    .action(async () => {
      // Loaded here only: the demo pulls in every feature module, seconds that other commands do without.
      const { DemoModule } = await import('./demo/demo.module');
      const { DemoSeeder } = await import('./demo/demo-seeder');
      const context = await NestFactory.createApplicationContext(DemoModule, { logger: ['error'], abortOnError: false });
      try {
        print(await context.get(DemoSeeder).seed());
      } finally {
        await context.close();
      }
    });

  program
    .command('documents:store')
    .description(
      'build and store the document of every event whose stored document is missing or older (event_documents), in id order, printing a progress line per batch on stderr; run again to resume, or start at --after-id; prints {read, built, last_id}',
    )
    .option('--batch <n>', 'events per batch', (value) => Number(value), 500)
    .option('--after-id <id>', 'start after this event id', (value) => Number(value), 0)
    .action(async (options: { batch: number; afterId: number }) => {
      if (!Number.isInteger(options.batch) || options.batch < 1 || options.batch > 5000)
        throw new CliUsageError('--batch must be 1 to 5000');
      if (!Number.isInteger(options.afterId) || options.afterId < 0) throw new CliUsageError('--after-id must be a whole number');
      const { DocumentsCliModule } = await import('./documents-cli.module');
      const { EventDocuments } = await import('./catalogue/documents/event-documents');
      const context = await NestFactory.createApplicationContext(DocumentsCliModule, { logger: ['error'], abortOnError: false });
      try {
        const documents = context.get(EventDocuments);
        const started = Date.now();
        let afterId = options.afterId;
        let read = 0;
        let built = 0;
        for (;;) {
          const batch = await documents.storeBatch(afterId, options.batch);
          if (batch.lastId === null) break;
          afterId = batch.lastId;
          read += batch.read;
          built += batch.built;
          const seconds = (Date.now() - started) / 1000;
          process.stderr.write(
            `documents: ${read} read, ${built} built, up to id ${afterId}, ${Math.round(read / Math.max(seconds, 0.001))}/s\n`,
          );
        }
        print({ read, built, last_id: afterId });
      } finally {
        await context.close();
      }
    });

  return program;
}

class CliUsageError extends Error {}

function describeApiError(error: ApiError): string {
  const params = error.extraData.params;
  return params && !Array.isArray(params) ? Object.values(params).join('; ') : error.message;
}

export async function runCli(argv: string[]): Promise<number> {
  try {
    loadDotEnvFile();
    loadAppConfig(process.env);
    readPayments(process.env);
    await buildProgram().parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    const message =
      error instanceof ApiError
        ? describeApiError(error)
        : error instanceof ConfigError || error instanceof CliUsageError || error instanceof DemoRefusedError
          ? error.message
          : error instanceof Error
            ? (error.stack ?? error.message)
            : String(error);
    process.stderr.write(`error: ${message}\n`);
    return 1;
  }
}

if (require.main === module) {
  void runCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
