#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec/1e3;}
int main(int c,char**v){int rows=atoi(v[1]),cols=atoi(v[2]),w=cols+2;double*u=calloc((rows+2)*w,8),*b=calloc((rows+2)*w,8);
for(int i=0;i<(rows+2)*w;i++)u[i]=i%7;
for(int pass=0;pass<2;pass++){double t0=now();int it_n=pass?2000:300;for(int it=0;it<it_n;it++){for(int j=1;j<=rows;j++)for(int i=1;i<=cols;i++)b[j*w+i]=0.25*(u[j*w+i-1]+u[j*w+i+1]+u[(j-1)*w+i]+u[(j+1)*w+i]);double*t=u;u=b;b=t;}
if(pass)printf("%.1f us/sweep\n",(now()-t0)/it_n);}return 0;}
