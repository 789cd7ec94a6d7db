'use strict';

const assert = require('node:assert');
const { slug } = require('./slug');

assert.strictEqual(slug('Hello, World!'), 'hello-world');
assert.strictEqual(slug('  Go & Node  '), 'go-node');
console.log('slug: ok');
