import { registerDecorator, ValidationOptions } from 'class-validator';
import { CART_PROVIDER_NAMES, isProviderName } from '../cart-providers';

/** A provider name the cart and checkout accept: `rsvp`, `tc`, or the aliases `tribe-commerce` and `tpp`. */
export function IsProviderName(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isProviderName',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: `$property must be one of ${CART_PROVIDER_NAMES.join(', ')}`, ...options },
      validator: { validate: (value: unknown) => isProviderName(value) },
    });
}
