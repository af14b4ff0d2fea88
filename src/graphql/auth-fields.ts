/**
 * The users collection's session queries and mutations with Payload's names: `meUser`,
 * `initializedUser`, `loginUser`, `logoutUser`, `refreshTokenUser`, `forgotPasswordUser`,
 * `resetPasswordUser`, `unlockUser`. Each calls the operation REST's route calls; a login or reset
 * also sets the session cookies, as REST does.
 */
import {
  GraphQLBoolean,
  GraphQLInt,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfig,
} from 'graphql';
import { countUsers, login, type LoginResult } from '../operations/login.ts';
import { forgotPassword } from '../auth/password-reset.ts';
import { resetPassword } from '../operations/reset-password.ts';
import { me } from '../operations/account/me.ts';
import { logout } from '../operations/account/logout.ts';
import { refreshToken } from '../operations/account/refresh.ts';
import { unlockLogin } from '../operations/account/unlock.ts';
import { seconds } from '../operations/account/own-user.ts';
import type { SchemaBuild } from './build-state.ts';
import type { GraphQLRequest } from './request-context.ts';
import { collectionNames, formatName } from './names.ts';
import type { SanitizedConfig } from '../config/types.ts';

type Fields = Record<string, GraphQLFieldConfig<unknown, GraphQLRequest, any>>;
const string = { type: GraphQLString };

function signedIn(req: GraphQLRequest, result: LoginResult) {
  req.personal = true;
  for (const cookie of req.transport.sessionCookies(result.session.token, result.session.csrfToken))
    req.headers.append('set-cookie', cookie);
  return { user: result.user, token: result.session.token, exp: seconds(result.session.expiresAt) };
}

function objectType(name: string, fields: Record<string, { type: any }>, build: SchemaBuild) {
  return build.named(name, () => new GraphQLObjectType({ name, fields }));
}

export function authQueries(build: SchemaBuild): Fields {
  const users = build.config.collectionsBySlug.get('users')!;
  const name = build.names.collections.get('users')!.singular;
  const user = { type: build.docTypes.get(users.slug)! };
  return {
    [`me${name}`]: {
      type: objectType(
        formatName(`${users.slug}Me`),
        { user, exp: { type: GraphQLInt }, token: string, collection: string, strategy: string },
        build,
      ),
      resolve: async (_, _args, req) => {
        req.personal = true;
        const { user, token, exp, strategy } = await me(req.ctx, { session: req.credentials });
        return { user, exp, token, collection: users.slug, strategy };
      },
    },
    [`initialized${name}`]: {
      type: GraphQLBoolean,
      resolve: async (_, _args, req) => {
        req.personal = true;
        return (await countUsers(req.cms)) > 0;
      },
    },
  };
}

export function authMutations(build: SchemaBuild): Fields {
  const users = build.config.collectionsBySlug.get('users')!;
  const name = build.names.collections.get('users')!.singular;
  const user = { type: build.docTypes.get(users.slug)! };
  return {
    [`login${name}`]: {
      type: objectType(
        formatName(`${users.slug}LoginResult`),
        { user, exp: { type: GraphQLInt }, token: string },
        build,
      ),
      args: { email: { type: new GraphQLNonNull(GraphQLString) }, password: string, code: string },
      resolve: async (_, args, req) => {
        req.transport.checkLoginOrigin();
        return signedIn(
          req,
          await login(req.cms, {
            email: args.email,
            password: args.password,
            code: args.code,
            client: req.transport.client,
            via: 'graphql',
          }),
        );
      },
    },
    [`logout${name}`]: {
      type: GraphQLString,
      resolve: async (_, _args, req) => {
        req.personal = true;
        await logout(req.ctx, { token: req.credentials.token });
        for (const cookie of req.transport.clearedCookies()) req.headers.append('set-cookie', cookie);
        return 'Logged out.';
      },
    },
    [`refreshToken${name}`]: {
      type: objectType(
        formatName(`${users.slug}Refreshed${name}`),
        { user, exp: { type: GraphQLInt }, refreshedToken: string, strategy: string },
        build,
      ),
      resolve: async (_, _args, req) => {
        req.personal = true;
        const refreshed = await refreshToken(req.ctx, { session: req.credentials });
        const { token, via, csrfToken } = req.credentials;
        if (via === 'cookie')
          for (const cookie of req.transport.sessionCookies(token!, csrfToken!))
            req.headers.append('set-cookie', cookie);
        return { ...refreshed, strategy: 'local-jwt' };
      },
    },
    [`forgotPassword${name}`]: {
      type: new GraphQLNonNull(GraphQLBoolean),
      args: { email: { type: new GraphQLNonNull(GraphQLString) } },
      resolve: async (_, args, req) => {
        await forgotPassword(req.cms, { email: args.email, ip: req.transport.ip, origin: req.transport.origin });
        return true;
      },
    },
    [`resetPassword${name}`]: {
      type: objectType(formatName(`${users.slug}ResetPassword`), { user, token: string }, build),
      args: { token: string, password: string, code: string },
      resolve: async (_, args, req) => {
        req.transport.checkLoginOrigin();
        const result = await resetPassword(req.cms, {
          token: args.token,
          password: args.password,
          code: args.code,
          client: req.transport.client,
          via: 'graphql',
        });
        return signedIn(req, result);
      },
    },
    [`unlock${name}`]: {
      type: new GraphQLNonNull(GraphQLBoolean),
      args: { email: { type: new GraphQLNonNull(GraphQLString) } },
      resolve: async (_, args, req) => {
        await unlockLogin(req.ctx, { email: args.email });
        return true;
      },
    },
  };
}

/** Mutations that sign in rather than act as the caller: like REST's login and reset, they need no CSRF token. */
export function signInMutations(config: SanitizedConfig): Set<string> {
  const name = collectionNames(config.collectionsBySlug.get('users')!).singular;
  return new Set([`login${name}`, `forgotPassword${name}`, `resetPassword${name}`]);
}
