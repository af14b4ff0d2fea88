/**
 * Stored file names (`<name>-<random>.<detected extension>`, docs/media.md). Only names built here are
 * ever stored, so the file route can refuse anything that does not match `STORED_NAME` before it
 * touches the database or the disk.
 */
import { randomBytes } from 'node:crypto';

/** Every stored name, sizes included: no separators, no dots but the extension's, bounded. */
export const STORED_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,199}\.[a-z0-9]{1,10}$/;
const MAX_BASE = 60;
const RANDOM_LENGTH = 10;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const MAX_ORIGINAL_NAME = 1024;

/** The uploaded name made safe to be part of a stored name: ASCII letters, digits, `-` and `_`, never empty. */
export function safeBaseName(originalName: string): string {
  const last = originalName.split(/[/\\]/).pop() ?? '';
  const withoutExtension = last.replace(/\.[A-Za-z0-9]{1,10}$/, '');
  const ascii = withoutExtension.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  const base = ascii
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .slice(0, MAX_BASE)
    .replace(/^[^A-Za-z0-9]+|[-_]+$/g, '');
  return base || 'file';
}

function randomSuffix(): string {
  const bytes = randomBytes(RANDOM_LENGTH);
  let out = '';
  for (const byte of bytes) out += ALPHABET[byte % ALPHABET.length];
  return out;
}

/** `<safe name>-<random>.<extension>`. */
export function storedFileName(originalName: string, extension: string): string {
  return `${safeBaseName(originalName)}-${randomSuffix()}.${extension}`;
}

/**
 * The file of an image size sits beside its original: `photo-k3x9q2m1ab-thumb.jpg`; sizes made again
 * (a new focal point or crop) carry a version, `photo-k3x9q2m1ab-v7k2p9-thumb.jpg`, since stored files
 * are served as immutable.
 */
export function sizeFileName(filename: string, sizeName: string, version?: string): string {
  const dot = filename.lastIndexOf('.');
  return `${filename.slice(0, dot)}-${version ? `${version}-` : ''}${sizeName}${filename.slice(dot)}`;
}

/** A fresh version for sizes made again: `v` and five random characters. */
export const randomSizeVersion = () => `v${randomSuffix().slice(0, 5)}`;

/** For a name that may be a size's file: the possible original names and the size's name (check against the database). */
export function splitSizeFileName(name: string): { filenames: string[]; sizeName: string } | null {
  const match = /^(.+)-([A-Za-z_][A-Za-z0-9_]*)(\.[a-z0-9]+)$/.exec(name);
  if (!match) return null;
  const versioned = /^(.+)-v[a-z0-9]{5}$/.exec(match[1]);
  const filenames = [`${match[1]}${match[3]}`, ...(versioned ? [`${versioned[1]}${match[3]}`] : [])];
  return { filenames, sizeName: match[2] };
}

/** The name as uploaded, kept for people: control characters removed, length bounded. */
export function cleanOriginalName(name: string): string {
  return name.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, MAX_ORIGINAL_NAME);
}
