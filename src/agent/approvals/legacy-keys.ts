/**
 * `command_allowlist` keys that earlier versions of this product wrote (its own snake_case
 * names), mapped to Hermes' description keys for the same approval. Read through this map so old
 * entries keep matching; the next allowlist write replaces them (allowlist-yaml.ts), so the file
 * ends up holding only keys the Hermes CLI understands. A key whose pattern became hardline maps
 * to the Hermes key it had, which nothing can approve any more.
 */
export const LEGACY_KEYS: Readonly<Record<string, readonly string[]>> = {
  recursive_delete: ['recursive delete', 'recursive delete (long flag)', 'recursive delete (flags after operands)'],
  delete_system_path: ['delete in root path'],
  chmod_world_writable: ['world/other-writable permissions', 'recursive world/other-writable (long flag)'],
  chown_root_recursive: ['recursive chown to root', 'recursive chown to root (long flag)'],
  mkfs: ['format filesystem'],
  dd: ['disk copy'],
  block_device_write: ['write to block device'],
  sql_drop: ['SQL DROP'],
  sql_delete_without_where: ['SQL DELETE without WHERE'],
  sql_truncate: ['SQL TRUNCATE'],
  write_system_config: ['overwrite system config'],
  copy_into_system_config: ['copy/move file into system config path'],
  sed_inplace_system_config: ['in-place edit of system config', 'in-place edit of system config (long flag)'],
  write_ssh_dir: ['copy/move file into sensitive credential/SSH/shell-rc path', 'in-place edit of sensitive credential/SSH/shell-rc path'],
  write_hermes_env: ['in-place edit of Hermes config/env'],
  write_hermes_config: ['in-place edit of Hermes config/env'],
  systemctl_service_change: ['stop/restart system service'],
  system_shutdown: ['system shutdown/reboot'],
  kill_all_processes: ['kill all processes'],
  force_kill: ['force kill processes', 'force kill processes (killall -KILL)', 'force kill processes (killall -s KILL)'],
  kill_hermes: ['kill hermes/gateway process (self-termination)'],
  fork_bomb: ['fork bomb'],
  shell_c: ['shell command via -c/-lc flag'],
  shell_stdin: ['shell execution via heredoc'],
  python_c: ['script execution via -e/-c flag'],
  perl_e: ['script execution via -e/-c flag'],
  ruby_e: ['script execution via -e/-c flag'],
  node_e: ['script execution via -e/-c flag'],
  curl_pipe_shell: ['pipe remote content to shell'],
  remote_script_exec: ['execute remote script via process substitution', 'execute remote content via command substitution'],
  decode_pipe_shell: [
    'pipe decoded content to shell (possible command obfuscation)',
    'pipe xxd-decoded content to shell (possible command obfuscation)',
    'pipe openssl-decoded content to shell (possible command obfuscation)',
  ],
  xargs_rm: ['xargs with rm'],
  find_exec_rm: ['find -exec/-execdir rm'],
  find_delete: ['find -delete'],
  hermes_gateway_stop: ['stop/restart hermes gateway (kills running agents)'],
  gateway_outside_service: ["start gateway outside systemd (use 'systemctl --user restart hermes-gateway')"],
  docker_lifecycle: ['docker compose restart/stop/kill/down (container lifecycle)', 'docker restart/stop/kill (container lifecycle)'],
  docker_remote_daemon: [
    'docker with remote daemon redirect (-H/--host)',
    'docker with daemon redirect (--context: alternate daemon)',
    'docker context use (switches default daemon for future commands)',
    'podman with remote daemon redirect (--url/--connection/--identity)',
    'podman remote mode (-r/--remote: remote daemon)',
    'docker/podman daemon redirect via environment (DOCKER_HOST/CONTAINER_HOST)',
  ],
  unparseable_command: ['command parser limit or malformed executable payload'],
};

/** An allowlist entry as Hermes reads it: a legacy key becomes its Hermes keys, anything else stays. */
export function hermesKeys(entry: string): readonly string[] {
  return Object.hasOwn(LEGACY_KEYS, entry) ? LEGACY_KEYS[entry]! : [entry];
}
