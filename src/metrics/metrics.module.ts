import { Module } from '@nestjs/common';
import { CheckoutMetricsInterceptor } from './checkout-metrics.interceptor';
import { HttpMetricsMiddleware } from './http-metrics.middleware';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

/**
 * Prometheus metrics: `GET /metrics`, the HTTP middleware app.setup.ts mounts, and the service
 * and interceptor the checkout and orders code report sales and failures through.
 */
@Module({
  controllers: [MetricsController],
  providers: [MetricsService, HttpMetricsMiddleware, CheckoutMetricsInterceptor],
  exports: [MetricsService, HttpMetricsMiddleware, CheckoutMetricsInterceptor],
})
export class MetricsModule {}
