/* Ten abstracts in PubTator form, in PubMed id order, KRAS and MYC first named together (with
   BRAF) in the ninth: the C tests' literature (tests/test_capi.c, tests/capi_options_walk.c). */
#ifndef GRAPPI_TEST_TEN_ABSTRACTS_H
#define GRAPPI_TEST_TEN_ABSTRACTS_H
#define GRAPPI_TEN_ABSTRACTS \
      "1|t|KRAS and BRAF interact.\n1|a|-\n1\t0\t4\tKRAS\tGene\t3845\n1\t9\t13\tBRAF\tGene\t673\n\n" \
      "2|t|BRAF and MYC interact.\n2|a|-\n2\t0\t4\tBRAF\tGene\t673\n2\t9\t12\tMYC\tGene\t4609\n\n" \
      "3|t|KRAS and EGFR interact.\n3|a|-\n3\t0\t4\tKRAS\tGene\t3845\n3\t9\t13\tEGFR\tGene\t1956\n\n" \
      "4|t|EGFR and MYC interact.\n4|a|-\n4\t0\t4\tEGFR\tGene\t1956\n4\t9\t12\tMYC\tGene\t4609\n\n" \
      "5|t|KRAS and RAF1 interact.\n5|a|-\n5\t0\t4\tKRAS\tGene\t3845\n5\t9\t13\tRAF1\tGene\t5894\n\n" \
      "6|t|RAF1 and MAPK1 interact.\n6|a|-\n6\t0\t4\tRAF1\tGene\t5894\n6\t9\t14\tMAPK1\tGene\t5594\n\n" \
      "7|t|MAPK1 and MYC interact.\n7|a|-\n7\t0\t5\tMAPK1\tGene\t5594\n7\t10\t13\tMYC\tGene\t4609\n\n" \
      "8|t|BRAF and EGFR interact.\n8|a|-\n8\t0\t4\tBRAF\tGene\t673\n8\t9\t13\tEGFR\tGene\t1956\n\n" \
      "9|t|KRAS and BRAF and MYC interact.\n9|a|-\n9\t0\t4\tKRAS\tGene\t3845\n9\t9\t13\tBRAF\tGene\t673\n" \
      "9\t18\t21\tMYC\tGene\t4609\n\n" \
      "10|t|EGFR and RAF1 interact.\n10|a|-\n10\t0\t4\tEGFR\tGene\t1956\n10\t9\t13\tRAF1\tGene\t5894\n\n"
#endif
