import { withPayload } from '@payloadcms/next/withPayload';

// No ESLint is installed next to the bench app; `next build` still type-checks it.
export default withPayload({ eslint: { ignoreDuringBuilds: true } });
