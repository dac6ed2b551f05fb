// The sign-in page (issue 28, point 1): e-mail and password, through the console's OAuth
// application (code grant with PKCE, the default) or a plain login. The reason a previous session
// ended is shown here.
import {
  Alert,
  Button,
  Center,
  Paper,
  PasswordInput,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { Navigate, useLocation } from 'react-router';
import { explain } from '../api/errors.ts';
import { useSession } from './roles.ts';
import { session, type SignInMethod } from './session.ts';
import { signInWithOAuth, signInWithPassword } from './sign-in.ts';

export function SignIn() {
  const s = useSession();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [method, setMethod] = useState<SignInMethod>('oauth');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    document.title = 'Sign in · Administration console';
  }, []);
  const from: unknown = location.state && (location.state as { from?: unknown }).from;
  if (s) return <Navigate to={typeof from === 'string' && from !== '/signin' ? from : '/'} replace />;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await (method === 'oauth' ? signInWithOAuth : signInWithPassword)(email.trim(), password);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const failure = error ? explain(error) : null;
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" w={400} maw="100%">
        <form onSubmit={(e) => void submit(e)} aria-labelledby="signin-title">
          <Stack>
            <Title order={1} size="h3" id="signin-title">
              Sign in to the administration console
            </Title>
            {session.notice ? (
              <Alert color="blue" role="status">
                {session.notice}
              </Alert>
            ) : null}
            {failure ? (
              <Alert color="red" title="Sign-in refused" role="alert">
                {failure.message}
              </Alert>
            ) : null}
            <TextInput
              label="E-mail"
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              data-autofocus
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
            <div>
              <Text size="sm" fw={500} mb={4} id="method-label">
                Sign-in method
              </Text>
              <SegmentedControl
                fullWidth
                aria-labelledby="method-label"
                value={method}
                onChange={(v) => setMethod(v === 'password' ? 'password' : 'oauth')}
                data={[
                  { value: 'oauth', label: 'OAuth (PKCE)' },
                  { value: 'password', label: 'Password login' },
                ]}
              />
            </div>
            <Button type="submit" loading={busy}>
              Sign in
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
