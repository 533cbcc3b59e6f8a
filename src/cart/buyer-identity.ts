import { Inject, Injectable, PipeTransform } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type { Request } from 'express';
import type { AuthenticatedUser } from '../auth/roles';
import { HttpRequest } from '../auth/request-context';
import { appConfig } from '../config/app.config';
import { Buyer, requestCartToken } from './cart-identity';

/** Who buys, or asks about orders: the signed-in user, if any, and the valid cart token the request carries. */
export interface BuyerIdentity {
  user?: AuthenticatedUser;
  cartToken: string | null;
}

/** Reads the caller and the cart token (header or cookie; tokens this service did not issue are ignored). */
@Injectable()
export class BuyerIdentityPipe implements PipeTransform<Request & { user?: AuthenticatedUser }, BuyerIdentity> {
  constructor(@Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>) {}

  transform(request: Request & { user?: AuthenticatedUser }): BuyerIdentity {
    return { user: request.user, cartToken: requestCartToken(request, this.config.nonceSecret) };
  }
}

/** The handler parameter naming the buyer: `@BuyerIdentity() buyer: BuyerIdentity`. */
export const BuyerIdentity = (): ParameterDecorator => HttpRequest(undefined, BuyerIdentityPipe);

/** The cart a buyer works on: a signed-in buyer has one cart per user, an anonymous one that of its token. */
export function cartBuyer(identity: BuyerIdentity): Buyer {
  if (identity.user) return { kind: 'user', userId: identity.user.id };
  return { kind: 'guest', token: identity.cartToken };
}
