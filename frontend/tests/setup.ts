import { configure } from '@testing-library/svelte';

// findBy*/waitFor give up after a second by default, which a busy
// two-core machine can exceed while a component renders; nothing here
// measures speed.
configure({ asyncUtilTimeout: 5_000 });
