import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './browser';
import { type Product, startProduct } from './product';
import { withPage } from './ui';

export interface Suite {
  product?: Product;
  browser?: Browser;
  /** The web client's URL once started. */
  web: string;
  /** A fresh browser context per test: no cookies or localStorage carried over. */
  page(name: string, fn: (page: Page) => Promise<void>): Promise<void>;
}

export interface SuiteOptions {
  /** Extra variables of the product's process, read when it starts (after earlier `before` hooks ran). */
  env?: () => Record<string, string>;
}

/**
 * The product and a browser for one describe block, started side by side in `before` (whichever
 * started is stopped in `after`, even if the other failed); `ready` then sets up what the tests share.
 */
export function productSuite(ready?: (product: Product) => Promise<void>, options: SuiteOptions = {}): Suite {
  const suite: Suite = {
    web: '',
    page(name, fn) {
      assert.ok(suite.browser, 'browser not started');
      return withPage(suite.browser, name, fn);
    },
  };
  before(async () => {
    const [started, launched] = await Promise.allSettled([startProduct(options.env?.()), launchBrowser()]);
    if (started.status === 'fulfilled') suite.product = started.value;
    if (launched.status === 'fulfilled') suite.browser = launched.value;
    if (started.status === 'rejected') throw started.reason;
    if (launched.status === 'rejected') throw launched.reason;
    suite.web = started.value.webUrl;
    await ready?.(started.value);
  });
  after(async () => {
    await suite.browser?.close();
    await suite.product?.stop();
  });
  return suite;
}
