#define _GNU_SOURCE
#include <sys/uio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sched.h>
#include <time.h>
#include <signal.h>
#include <sys/wait.h>
#include <sys/mman.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static void pin(int c){cpu_set_t s;CPU_ZERO(&s);CPU_SET(c,&s);sched_setaffinity(0,sizeof s,&s);}
int main(int argc,char**argv){
  size_t n = argc>1? strtoul(argv[1],0,0) : 4<<20; int reps = argc>2? atoi(argv[2]) : 500;
  char *src = mmap(0,n,PROT_READ|PROT_WRITE,MAP_SHARED|MAP_ANONYMOUS,-1,0); memset(src,1,n);
  char *dst = malloc(n); memset(dst,2,n);
  char *mid = malloc(n); memset(mid,3,n);
  pid_t child = fork();
  if(!child){ pin(1); for(;;) pause(); }
  pin(0); usleep(10000);
  struct iovec l={dst,n}, r={src,n};
  double best=1e9, tot=0; 
  for(int i=0;i<reps;i++){ double t0=now(); ssize_t got=process_vm_readv(child,&l,1,&r,1,0); double t=now()-t0; if(got!=(ssize_t)n){perror("cma");return 1;} tot+=t; if(t<best)best=t;}
  printf("process_vm_readv %zu B: mean %.1f us (%.2f GB/s), best %.1f us\n", n, tot/reps*1e6, n/(tot/reps)/1e9, best*1e6);
  tot=0; for(int i=0;i<reps;i++){ double t0=now(); memcpy(dst,src,n); tot+=now()-t0; }
  printf("memcpy same process %zu B: mean %.1f us (%.2f GB/s)\n", n, tot/reps*1e6, n/(tot/reps)/1e9);
  kill(child,SIGKILL); wait(0); return 0; }
