import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Cart, CartItem } from './cart.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Cart, CartItem])],
})
export class CartModule {}
