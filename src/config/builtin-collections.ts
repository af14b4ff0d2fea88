/** The built-in collections (users, media, api-keys, and folders when a collection asks for them) as plain configs, merged with a project's own declarations. */
import type { AccessArgs, CollectionConfig, Field } from './types.ts';
import { frameFields, uploadFileFields } from './upload-collections.ts';

const loggedIn = ({ user }: AccessArgs) => Boolean(user);
const isAdmin = ({ user }: AccessArgs) => user?.role === 'admin';
const anyone = () => true;

export const USERS_SLUG = 'users';
export const MEDIA_SLUG = 'media';
export const API_KEYS_SLUG = 'api-keys';
/** Payload's name for it, so its clients find folders where they look. */
export const FOLDERS_SLUG = 'payload-folders';
/** The relationship a collection with `folders: true` gets (Payload's default field name). */
export const FOLDER_FIELD = 'folder';

export function usersCollection(roles: string[]): CollectionConfig {
  const defaultRole = roles.includes('editor') ? 'editor' : roles[roles.length - 1];
  return {
    slug: USERS_SLUG,
    admin: { useAsTitle: 'email' },
    access: {
      read: loggedIn,
      create: isAdmin,
      // A user edits themself; admins edit anyone.
      update: ({ user }) => (user ? (user.role === 'admin' ? true : { id: { equals: user.id } }) : false),
      delete: isAdmin,
    },
    fields: [
      { name: 'email', type: 'email', required: true, unique: true },
      { name: 'name', type: 'text' },
      {
        name: 'role',
        type: 'select',
        options: roles,
        defaultValue: defaultRole,
        required: true,
        access: { create: isAdmin, update: isAdmin },
      },
      { name: 'active', type: 'checkbox', defaultValue: true, access: { create: isAdmin, update: isAdmin } },
    ],
  };
}

export function mediaCollection(): CollectionConfig {
  return {
    slug: MEDIA_SLUG,
    upload: true,
    admin: { useAsTitle: 'filename' },
    access: { read: anyone, create: loggedIn, update: loggedIn, delete: loggedIn },
    fields: [...uploadFileFields(), { name: 'alt', type: 'text' }, ...frameFields()],
  };
}

export function apiKeysCollection(): CollectionConfig {
  return {
    slug: API_KEYS_SLUG,
    admin: { useAsTitle: 'name' },
    access: { read: isAdmin, create: isAdmin, update: isAdmin, delete: isAdmin },
    fields: [
      { name: 'name', type: 'text', required: true },
      { name: 'user', type: 'relationship', relationTo: USERS_SLUG, required: true },
      // The admin shows a collections × actions grid for it (admin/src/form/scopes-field.tsx).
      { name: 'scopes', type: 'json', required: true, admin: { component: 'scopes' } },
      { name: 'expiresAt', type: 'date' },
      { name: 'prefix', type: 'text', admin: { readOnly: true } },
    ],
  };
}

/** Nested folders (docs/media.md, "Folders"): a name and the folder it sits in (none: the top level). */
export function foldersCollection(): CollectionConfig {
  return {
    slug: FOLDERS_SLUG,
    labels: { singular: 'Folder', plural: 'Folders' },
    admin: { useAsTitle: 'name' },
    access: { read: loggedIn, create: loggedIn, update: loggedIn, delete: loggedIn },
    fields: [{ name: 'name', type: 'text', required: true, maxLength: 200 }, folderField()],
  };
}

export function folderField(): Field {
  return { name: FOLDER_FIELD, type: 'relationship', relationTo: FOLDERS_SLUG, index: true };
}

/** Fields the system writes itself: never accepted from input, never returned. */
export const SYSTEM_COLUMNS: Record<string, { name: string; type: 'text' | 'integer' }[]> = {
  [USERS_SLUG]: [{ name: 'passwordHash', type: 'text' }],
  [API_KEYS_SLUG]: [{ name: 'keyHash', type: 'text' }],
};

export { MEDIA_SYSTEM_FIELDS } from './upload-collections.ts';
