/** True while `pid` runs; an exited child that waits to be reaped (a zombie) no longer does. */
export function isRunning(pid: number): boolean;
