/**
 * The platforms `bun run build --all` writes a binary for (docs/build.md), and
 * how each is named by Bun's cross-compiler, by sharp's npm packages and in dist/.
 */
export interface BuildTarget {
  /** Our name, also the file name's suffix: `dist/cms-<name>`. */
  name: string;
  /** Bun.build `compile.target`. */
  bunTarget: string;
  /** `<os>-<cpu>` as sharp names its `@img/sharp-*` packages. */
  sharpPlatform: string;
  os: 'linux' | 'darwin' | 'win32';
  cpu: 'x64' | 'arm64';
  /** File name in dist/. */
  file: string;
}

function target(os: BuildTarget['os'], cpu: BuildTarget['cpu']): BuildTarget {
  const name = `${os === 'win32' ? 'windows' : os}-${cpu}`;
  return {
    name,
    bunTarget: `bun-${name}`,
    sharpPlatform: `${os}-${cpu}`,
    os,
    cpu,
    file: `cms-${name}${os === 'win32' ? '.exe' : ''}`,
  };
}

export const BUILD_TARGETS: readonly BuildTarget[] = [
  target('linux', 'x64'),
  target('linux', 'arm64'),
  target('darwin', 'x64'),
  target('darwin', 'arm64'),
  target('win32', 'x64'),
];

/** The target of the machine running the build, when it is one of ours. */
export function hostTarget(): BuildTarget | undefined {
  return BUILD_TARGETS.find((t) => t.os === process.platform && t.cpu === process.arch);
}
