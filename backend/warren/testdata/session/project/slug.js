'use strict';

// slug turns a title into a URL path segment.
function slug(title) {
  return title.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

module.exports = { slug };
