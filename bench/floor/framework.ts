/**
 * The framework floor: a bare Nest 11 + Express app (no global pipes, guards, interceptors,
 * logging or metrics) whose handlers answer the floor's routes with the floor's own work (the same
 * statements, the same kept documents, the same bytes). Against the floor it shows what the
 * framework alone costs; against the service, what the service spends beyond the framework.
 * It runs in the floor's process (bench/floor/server.ts, FRAMEWORK_PORT), sharing its documents.
 */
import { ArgumentsHost, Catch, Controller, ExceptionFilter, Get, Inject, Module, Req, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

type Answerer = (
  method: string | undefined,
  url: string | undefined,
  headers: IncomingHttpHeaders,
) => Promise<{ status: number; headers: Record<string, string>; body: string }>;

const ANSWERER = Symbol('floor-answerer');

/** A refusal of the floor, written by the filter with its own status and envelope. */
class Refused extends Error {
  constructor(readonly answer: { status: number; headers: Record<string, string>; body: string }) {
    super(`floor answered ${answer.status}`);
  }
}

@Catch(Refused)
class RefusedFilter implements ExceptionFilter {
  catch(refused: Refused, host: ArgumentsHost): void {
    host.switchToHttp().getResponse<Response>().status(refused.answer.status).set(refused.answer.headers).send(refused.answer.body);
  }
}

@Controller()
class FloorController {
  constructor(@Inject(ANSWERER) private readonly answer: Answerer) {}

  private async send(request: Request, response: Response): Promise<string> {
    const answer = await this.answer(request.method, request.originalUrl, request.headers);
    if (answer.status !== 200) throw new Refused(answer);
    response.set(answer.headers);
    return answer.body;
  }

  @Get('floor/ready')
  ready(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<string> {
    return this.send(request, response);
  }

  @Get('cal/events/v1/events')
  events(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<string> {
    return this.send(request, response);
  }

  @Get('cal/events/v1/events/:id')
  event(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<string> {
    return this.send(request, response);
  }

  @Get('cal/tickets/v1/tickets')
  tickets(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<string> {
    return this.send(request, response);
  }

  @Get('cal/tickets/v1/attendees')
  attendees(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<string> {
    return this.send(request, response);
  }
}

export async function startFrameworkFloor(
  answer: Answerer,
  port: number,
  host: string,
): Promise<{ url: string; close: () => Promise<void> }> {
  @Module({ controllers: [FloorController], providers: [{ provide: ANSWERER, useValue: answer }] })
  class FrameworkFloorModule {}

  const app = await NestFactory.create<NestExpressApplication>(FrameworkFloorModule, { logger: false });
  app.useGlobalFilters(new RefusedFilter());
  await app.listen(port, host);
  const address = app.getHttpServer().address() as AddressInfo;
  return { url: `http://127.0.0.1:${address.port}`, close: () => app.close() };
}
