/**
 * Records a handler's parameter classes as TypeScript does for a class it can name
 * (`design:paramtypes`). A controller made by a function for several resources cannot name them
 * in its signatures: without this, the validation pipe would not know the body's DTO and the
 * OpenAPI document would not show it.
 */
export const ParameterTypes =
  (...types: unknown[]): MethodDecorator =>
  (target, method) =>
    Reflect.defineMetadata('design:paramtypes', types, target, method);
