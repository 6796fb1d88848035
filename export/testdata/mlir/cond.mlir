"builtin.module"() ({
  "func.func"() <{function_type = (!stablehlo.token, tensor<i32>, tensor<3xf32>) -> (!stablehlo.token, tensor<3xf32>), sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%0: !stablehlo.token, %1: tensor<i32>, %2: tensor<3xf32>):
    %3:2 = "stablehlo.case"(%1) ({
      %4 = "stablehlo.custom_call"(%0, %2) {api_version = 1 : i32, backend_config = "sin {}", call_target_name = "jaxsh.debug_print", has_side_effect = true} : (!stablehlo.token, tensor<3xf32>) -> !stablehlo.token
      %5 = "stablehlo.sine"(%2) : (tensor<3xf32>) -> tensor<3xf32>
      "stablehlo.return"(%4, %5) : (!stablehlo.token, tensor<3xf32>) -> ()
    }, {
      %6 = "stablehlo.custom_call"(%0, %2) {api_version = 1 : i32, backend_config = "cos {}", call_target_name = "jaxsh.debug_print", has_side_effect = true} : (!stablehlo.token, tensor<3xf32>) -> !stablehlo.token
      %7 = "stablehlo.cosine"(%2) : (tensor<3xf32>) -> tensor<3xf32>
      "stablehlo.return"(%6, %7) : (!stablehlo.token, tensor<3xf32>) -> ()
    }, {
      %8 = "stablehlo.custom_call"(%0, %2) {api_version = 1 : i32, backend_config = "neg {}", call_target_name = "jaxsh.debug_print", has_side_effect = true} : (!stablehlo.token, tensor<3xf32>) -> !stablehlo.token
      %9 = "stablehlo.negate"(%2) : (tensor<3xf32>) -> tensor<3xf32>
      "stablehlo.return"(%8, %9) : (!stablehlo.token, tensor<3xf32>) -> ()
    }) : (tensor<i32>) -> (!stablehlo.token, tensor<3xf32>)
    "func.return"(%3#0, %3#1) : (!stablehlo.token, tensor<3xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32, sym_name = "jit_cond"} : () -> ()
