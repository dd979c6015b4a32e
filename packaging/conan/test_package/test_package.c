#include <grappi/grappi.h>
#include <stdio.h>

int main(void) {
  printf("grappi C API %s\n", grappi_version_string());
  return 0;
}
