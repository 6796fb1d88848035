"builtin.module"() ({
  "func.func"() <{function_type = (tensor<3xf32>) -> (tensor<3xf32>), sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%0: tensor<3xf32>):
    %1 = "stablehlo.multiply"(%0, %0) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %2 = "stablehlo.multiply"(%0, %1) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %3 = "stablehlo.constant"() {value = dense<0x3F800000> : tensor<f32>} : () -> tensor<f32>
    %4 = "stablehlo.broadcast_in_dim"(%3) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<3xf32>
    %5 = "stablehlo.divide"(%4, %2) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    "func.return"(%5) : (tensor<3xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32, sym_name = "jit_integer_pow"} : () -> ()
