import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';

/**
 * CONTRIBUTING.md's "Adding a module, step by step" is code a newcomer copies: its TypeScript blocks
 * (entity, migration, DTOs, mapper, errors, repository and service, controller, module) are put in one
 * file behind the imports a real module has, and type-checked against the code of today.
 */
const ROOT = join(__dirname, '..');

/** The ```ts blocks between two headings of CONTRIBUTING.md. */
function typescriptBlocks(from: string, to: string): string[] {
  const text = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');
  const section = text.slice(text.indexOf(from), text.indexOf(to));
  return [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]);
}

const IMPORTS = `
import { Body, Controller, Get, HttpCode, Injectable, Module, Param, Patch } from '@nestjs/common';
import {
  ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiProperty,
  ApiPropertyOptional, ApiSchema, ApiTags, PartialType,
} from '@nestjs/swagger';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IsOptional, IsString, IsUrl, MaxLength } from 'class-validator';
import {
  Column, CreateDateColumn, Entity, Index, MigrationInterface, PrimaryGeneratedColumn, QueryRunner, Table,
  UpdateDateColumn,
} from 'typeorm';
import { RequireCapability } from '${ROOT}/src/auth/decorators';
import { RequestContext, SignedInContext } from '${ROOT}/src/auth/request-context';
import { TransactionHost } from '${ROOT}/src/common/database/transaction-host';
import { ApiError } from '${ROOT}/src/common/errors/api-error';
import { RouteIdPipe } from '${ROOT}/src/common/http/route-params';
import { createPortableTable, idColumn, timestampColumns } from '${ROOT}/src/database/migration-helpers';
`;

describe("CONTRIBUTING.md's module guide", () => {
  it('compiles against the code', () => {
    const blocks = typescriptBlocks('## Adding a module, step by step', '### 9. E2E spec');
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    // Every declaration exported, so that nothing is reported unused.
    const body = blocks.join('\n').replace(/^(class|function|const) /gm, 'export $1 ');
    const dir = mkdtempSync(join(ROOT, '.guide-check-'));
    try {
      const file = join(dir, 'sponsors.ts');
      writeFileSync(file, `${IMPORTS}\n${body}`);
      const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), (path) => ts.sys.readFile(path));
      const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
      const program = ts.createProgram([file], { ...options, noEmit: true, noUnusedLocals: true });
      const problems = ts
        .getPreEmitDiagnostics(program, program.getSourceFile(file))
        .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      expect(problems).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
